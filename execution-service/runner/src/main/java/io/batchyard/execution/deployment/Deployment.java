package io.batchyard.execution.deployment;

import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Optional;

/**
 * One request to deploy a parent process: the deployment script of its process type, run once by a poller.
 * {@code message} says why a failed deployment failed, or what the service checked when it deployed a stand-alone
 * parent whose process type has no script.
 */
public record Deployment(long deploymentId, long processId, Integer processTypeId, Status status, String userName,
                         OffsetDateTime insertTs, OffsetDateTime startTs, OffsetDateTime endTs,
                         String deployScriptLocation, String message) {

    /** Whether a parent whose newest deployment is {@code latest} counts as deployed: only a successful one does. */
    public static boolean deployed(Optional<Deployment> latest) {
        return latest.filter(d -> d.status() == Status.SUCCESS).isPresent();
    }

    /**
     * NOT_STARTED → PICKED (a poller claimed it) → RUNNING (InitDeploy) → SUCCESS (HaltDeploy) | FAIL (TermDeploy);
     * nothing leaves an end state. The numbers are the stored deploy status ids.
     */
    public enum Status {
        NOT_STARTED(1), RUNNING(2), SUCCESS(3), FAIL(4), PICKED(5);

        private final int id;

        Status(int id) {
            this.id = id;
        }

        public int id() {
            return id;
        }

        public boolean canBecome(Status to) {
            return switch (this) {
                case NOT_STARTED -> to == PICKED;
                case PICKED -> to == RUNNING;
                case RUNNING -> to == SUCCESS || to == FAIL;
                case SUCCESS, FAIL -> false;
            };
        }

        public boolean ended() {
            return this == SUCCESS || this == FAIL;
        }

        public static Status ofId(int id) {
            return Arrays.stream(values()).filter(s -> s.id == id).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no deploy status " + id));
        }

        /** A name such as {@code RUNNING} (any case) or its number; empty when it is neither. */
        public static Optional<Status> parse(String text) {
            String t = text.trim();
            return Arrays.stream(values()).filter(s -> s.name().equalsIgnoreCase(t) || String.valueOf(s.id).equals(t))
                    .findFirst();
        }
    }

    /** The deployment script of a process type, looked up in the runner's script directory. */
    public static String scriptFor(int processTypeId) {
        return "process-type-" + processTypeId + ".sh";
    }
}
