package io.batchyard.registry;

import io.batchyard.api.ErrorCode;

/**
 * The registry's own validation errors (codes 201-299; 101-114 belong to the lifecycle). The reference's texts
 * (BDRE-PT-00x) are kept in the details where there is one.
 */
public enum RegistryError implements ErrorCode {
    UNKNOWN_REFERENCE(201, 422, "Unknown reference"),
    TYPE_NOT_FOR_PARENT(202, 422, "Process type not applicable for parent processes"),
    TYPE_NOT_FOR_STEP(203, 422, "Process type not applicable for sub processes"),
    PARENT_TYPE_MISMATCH(204, 422, "Parent process has the wrong process type"),
    INVALID_PARENT(205, 422, "Invalid parent process"),
    INVALID_ENQUEUER(206, 422, "Invalid enqueuing process"),
    INVALID_NEXT(207, 422, "Invalid next process"),
    CYCLE(208, 422, "Cycle in the process graph"),
    STEP_ONLY_FIELD(209, 422, "Field applies to sub-processes only"),
    DUPLICATE(210, 409, "Already exists"),
    STILL_REFERENCED(211, 409, "Still referenced"),
    STALE_VERSION(212, 409, "Stale version"),
    DELETED(213, 409, "Deleted"),
    INVALID_TEMPLATE(214, 422, "Invalid template"),
    /** BDRE-WG-001/002 and shapes a workflow cannot express. */
    WORKFLOW_SHAPE(215, 422, "Cannot generate a workflow for this process"),
    WORKFLOW_RENDERER(216, 503, "Workflow renderer unavailable"),
    /** A client-chosen process id in the generator's range. */
    ID_OUT_OF_RANGE(217, 400, "Process id outside the client range"),
    /** Empty, absolute, with a '..' segment or a control character: not a name inside the runner's script directory. */
    SCRIPT_NAME_REFUSED(218, 422, "Script name refused"),
    /** Templates are shared by every process made from them; a secret is set on each process instead. */
    SECRET_IN_TEMPLATE(219, 422, "Secret property in a template"),
    /** Rows seeded by migrations (the default application, the seeded server) stay. */
    MASTER_DATA(220, 409, "Master data cannot be deleted"),
    /** A permission type other than 0, 4, 6 or 7. */
    INVALID_PERMISSION(221, 400, "Invalid permission type"),
    /** The parent's workflow type does not run under the asked-for engine (a stand-alone parent has no Oozie XML). */
    WORKFLOW_TYPE_MISMATCH(222, 409, "Workflow type does not match the format"),
    /** A stand-alone file registration step (type 15) whose property group "file" does not name the file. */
    FILE_REGISTRATION_WITHOUT_FILE(223, 422, "File registration step names no file"),
    /** A process names a server that is not registered. */
    UNKNOWN_SERVER(224, 422, "Unknown server"),
    /** A step (or step template) belongs to its parent's application; it cannot name or move to another. */
    STEP_APPLICATION(225, 422, "A step belongs to its parent's application"),
    /** A stored credential sealed under a key id that is not configured, or that the key of its id does not open. */
    SECRET_UNREADABLE(226, 409, "Stored secret cannot be decrypted"),
    /**
     * {@code POST /pipelines/apply}: an object of the application changed (or appeared, or went) between the plan and
     * the apply; the detail names it, and nothing of the plan was applied.
     */
    CHANGED_SINCE_PLAN(227, 409, "Changed since the plan"),
    /** A parent's data deadlines: an unknown zone or grain, a malformed cron or duration, none set, or on a step. */
    INVALID_DEADLINES(228, 422, "Invalid deadlines");

    private final Spec spec;

    RegistryError(int code, int status, String title) {
        this.spec = new Spec(code, status, title);
    }

    @Override
    public Spec spec() {
        return spec;
    }
}
