package io.batchyard.execution.runner;

import io.batchyard.readmodel.ProcessDefinition;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One command of a step (one iteration of a loop): the step and its run, the script as the step's {@code script}
 * property names it with its arguments, the arguments as the run output shows them (a word read from a file or printed
 * by a script stands as its placeholder), the job's environment (the runner's contract values only), and how long it
 * may take. {@code workKey} names this piece of work across runs: the same parent, step, buckets and loop value give
 * the same key, so a launcher whose command outlives the service (a Kubernetes Job) can find it again after a restart
 * instead of starting it twice.
 */
public record StepLaunch(long processId, long stepId, long stepInstanceExecId, ProcessDefinition step, String script,
                         List<String> args, List<String> shownArgs, Map<String, String> env, Duration timeout,
                         String workKey) {
}
