package io.batchyard.eventing;

/**
 * A consumed event that can never be applied, however often it is retried: it contradicts what the consumer knows
 * (an unknown run, a batch that belongs to another run, a field out of range). Consumers throw it to have the record
 * dead-lettered; every other failure is judged transient or not by the failure rules of this module.
 *
 * <p>The message is the dead-letter reason that operators read, so it names the offending ids but never carries SQL,
 * bind values or stack traces.
 */
public class InvalidEventException extends RuntimeException {

    public InvalidEventException(String reason) {
        super(reason, null, false, false);
    }
}
