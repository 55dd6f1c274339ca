"""Batchyard's Python client: the calls a data job makes (lifecycle, files, process log, properties, lineage) over
the services' REST APIs, with the Java client's settings, retry rule and problem codes. Standard library only.

    from batchyard import Client

    client = Client()                      # settings from BATCHYARD_* environment variables
    with client.job(12) as run:            # InitJob … HaltJob, or TermJob with the exception's text
        with run.step(13) as step:         # InitStep … HaltStep, or TermStep
            ...
"""

from __future__ import annotations

from .client import MAX_FAILURE_TEXT, Client, fit_text
from .lifecycle import JobRun, StepRun, failure_text
from .model import FileToRegister, JobEnded, JobStart, LogEntry, Property, RegisteredFile, StepStart
from .problems import ProblemError, problem_of
from .retry import DEFAULT as DEFAULT_RETRY
from .retry import NONE as NO_RETRY
from .retry import RetryRule
from .settings import ClientSettings
from .tokens import ClientCredentials, StaticToken, TokenFile, TokenSource

__all__ = [
    "Client", "ClientSettings", "ClientCredentials", "DEFAULT_RETRY", "FileToRegister", "JobEnded", "JobRun",
    "JobStart", "LogEntry", "MAX_FAILURE_TEXT", "NO_RETRY", "ProblemError", "Property", "RegisteredFile",
    "RetryRule", "StaticToken", "StepRun", "StepStart", "TokenFile", "TokenSource", "failure_text", "fit_text",
    "problem_of",
]
__version__ = "0.1.0"
