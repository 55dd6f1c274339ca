package io.batchyard.client.kafka;

/**
 * One of the six lifecycle calls as a command: which call, the process it names (the parent for the job calls, the
 * sub-process for the step calls) and the call's own arguments, null where they do not apply or take the default.
 */
public record Command(Type type, long processId, Integer maxBatch, String batchMarking, Integer errorCode,
                      String errorText) {

    /**
     * The calls, named like their REST twins (the same names as the contract's LifecycleCommandType), each with the
     * lifecycle event that answers it. HaltJob and TermJob may end steps still running on the way, with events of the
     * same correlation id; the call's answer is the job's own event.
     */
    public enum Type {
        INIT_JOB("JobStarted"), INIT_STEP("StepStarted"), HALT_STEP("StepHalted"), TERM_STEP("StepFailed"),
        HALT_JOB("JobHalted"), TERM_JOB("JobFailed");

        private final String answeredBy;

        Type(String answeredBy) {
            this.answeredBy = answeredBy;
        }

        /** The name of the lifecycle event execution-service answers the command with when it applies it. */
        public String answeredBy() {
            return answeredBy;
        }
    }

    public static Command initJob(long processId, Integer maxBatch) {
        return new Command(Type.INIT_JOB, processId, maxBatch, null, null, null);
    }

    public static Command initStep(long subProcessId) {
        return new Command(Type.INIT_STEP, subProcessId, null, null, null, null);
    }

    public static Command haltStep(long subProcessId) {
        return new Command(Type.HALT_STEP, subProcessId, null, null, null, null);
    }

    public static Command termStep(long subProcessId) {
        return new Command(Type.TERM_STEP, subProcessId, null, null, null, null);
    }

    public static Command haltJob(long processId, String batchMarking) {
        return new Command(Type.HALT_JOB, processId, null, batchMarking, null, null);
    }

    public static Command termJob(long processId, Integer errorCode, String errorText) {
        return new Command(Type.TERM_JOB, processId, null, null, errorCode, errorText);
    }
}
