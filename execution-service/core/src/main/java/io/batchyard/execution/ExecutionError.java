package io.batchyard.execution;

import io.batchyard.api.ErrorCode;

/** execution-service's own errors (401-499); lifecycle rejections use {@link io.batchyard.api.LifecycleError}. */
public enum ExecutionError implements ErrorCode {
    QUEUE_UNAVAILABLE(401, 503, "Queue service unavailable"),
    ILLEGAL_TRANSITION(402, 409, "Illegal run state transition"),
    CONCURRENT_CHANGE(403, 409, "Concurrent change of a run"),
    INVALID_RUN_POLICY(404, 400, "Invalid run policy"),
    NO_RUN_POLICY(405, 404, "No run policy for this process"),
    INVALID_BUCKET(406, 400, "Invalid bucket"),
    BUCKET_NOT_RETRYABLE(407, 409, "Bucket is not failed"),
    NOT_A_STAND_ALONE_PARENT(408, 409, "Not a stand-alone parent process"),
    UNKNOWN_RUN(409, 404, "Unknown run"),
    /** Empty, absolute, with a '..' segment or a control character: not a name inside the script directory. */
    SCRIPT_NAME_REFUSED(410, 422, "Script name refused"),
    /** The name is well formed but its real path (after symlinks) lies outside the script directory. */
    SCRIPT_OUTSIDE_DIRECTORY(411, 422, "Script resolves outside the script directory"),
    /** Neither a parent nor a step this service has heard of from the registry. */
    UNKNOWN_PROCESS(412, 404, "Unknown process"),
    /** The process was deleted in the registry: its history stays readable, nothing new is recorded for it. */
    DELETED_PROCESS(413, 409, "Deleted process"),
    NO_PROCESS_LOG_ENTRY(414, 404, "No process log entry"),
    // The deployment queue's refusals. Their texts are the historical messages with uniform spacing (one space after
    // the colon, none before it, single spaces between words), whichever of the three calls refuses.
    UNKNOWN_DEPLOYMENT(420, 404, "The deployment Id is not present"),
    ALREADY_DEPLOYING(421, 409, "The process is already deploying"),
    ALREADY_DEPLOYED(422, 409, "The process is already deployed"),
    NOT_DEPLOYING(423, 409, "The process is not deploying"),
    /** InitDeploy of a deployment no poller has picked yet: only a picked deployment starts running. */
    DEPLOYMENT_NOT_PICKED(424, 409, "The deployment has not been picked"),
    /** A deployment was requested for a process that is not a live parent this service knows. */
    NOT_A_DEPLOYABLE_PROCESS(425, 404, "Not a deployable parent process"),
    INVALID_TRIGGER_POLICY(426, 400, "Invalid trigger policy"),
    NOT_A_TRIGGERABLE_PROCESS(427, 404, "Not a live parent process"),
    // 404, not 403: with batchyard.clock.movable off the endpoint does not exist for anyone, whatever the caller's role
    CLOCK_NOT_MOVABLE(428, 404, "The clock of this service cannot be moved (batchyard.clock.movable is off)"),
    INVALID_CLOCK_SETTING(429, 400, "Give exactly one of offsetSeconds and instant"),
    // PWM job groups: the settings of one job (a step) of a stand-alone parent.
    INVALID_JOB_SETTINGS(430, 400, "Invalid job settings"),
    /** The step is not a live step of that parent (or the parent is not a stand-alone parent with a run policy). */
    NOT_A_JOB_OF_THE_GROUP(431, 404, "Not a job of this group"),
    /** A SQL bucket source needs batchyard.bucket-datasource.url. */
    NO_BUCKET_DATASOURCE(432, 409, "No bucket datasource configured"),
    /** A file a job definition names (a context file) is empty, absolute, has a '..' segment or a control character. */
    FILE_NAME_REFUSED(433, 422, "File name refused"),
    /** The file's name is well formed but its real path (after symlinks) lies outside the runner's work directory. */
    FILE_OUTSIDE_DIRECTORY(434, 422, "File resolves outside the work directory"),
    // Data-aware triggering: a parent's trigger settings and the pause/resume of its triggered runs.
    /** A field of the trigger settings is malformed or does not fit the policy (n, timeout, grain, zone, inputs). */
    INVALID_TRIGGER_SETTINGS(435, 400, "Invalid trigger settings"),
    /** An input named in the settings is not an enqueuing process of any live step of the parent. */
    NOT_AN_INPUT_OF_THE_PARENT(436, 409, "Not an enqueuing process of the parent"),
    /** Resume of a parent whose triggered runs are not paused. */
    TRIGGER_NOT_PAUSED(437, 409, "The parent's triggers are not paused"),
    /** A resume mode other than catch-up or skip. */
    INVALID_RESUME_MODE(438, 400, "Invalid resume mode"),
    // Data deadlines (GET /deadlines/{id}, POST /deadlines/{id}/waive, GET /deadlines?state=).
    UNKNOWN_DEADLINE(440, 404, "Unknown deadline"),
    DEADLINE_NOT_OPEN(441, 409, "The deadline is no longer open"),
    INVALID_DEADLINE_STATE(442, 400, "Invalid deadline state"),
    // Backfills (460-469, apart from the codes other features take next)
    INVALID_BACKFILL(460, 400, "Invalid backfill request"),
    /** A plan id nobody made, or a plan listing a process the caller may not read. */
    UNKNOWN_BACKFILL_PLAN(461, 404, "Unknown backfill plan"),
    /** The queue, its archive or the roots' buckets changed since the plan was made; the answer carries the diff. */
    BACKFILL_PLAN_STALE(462, 409, "The backfill plan is stale"),
    /** A backfill id nobody started, or one whose plan lists a process the caller may not read. */
    UNKNOWN_BACKFILL(463, 404, "Unknown backfill"),
    /** Pause, resume or cancel of a backfill whose state does not allow it. */
    ILLEGAL_BACKFILL_TRANSITION(464, 409, "Illegal backfill state transition"),
    /** A plan entry the runner cannot re-run: its process has no run policy, or the entry has no bucket. */
    BACKFILL_NOT_RUNNABLE(465, 422, "The backfill has entries the runner cannot run"),
    /** A root names a column no query of the column lineage read or wrote: nothing could be pruned by it. */
    UNKNOWN_LINEAGE_COLUMN(466, 422, "No column lineage is known for a root's column"),
    /** lineage-service did not answer which jobs a root's columns reach. */
    LINEAGE_UNAVAILABLE(467, 503, "Lineage service unavailable");

    private final Spec spec;

    ExecutionError(int code, int status, String title) {
        this.spec = new Spec(code, status, title);
    }

    @Override
    public Spec spec() {
        return spec;
    }
}
