package io.batchyard.execution.command;

import io.batchyard.api.ApiException;
import io.batchyard.eventing.consumer.FailureClassifier;
import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.execution.LifecycleCommand;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Lifecycle calls sent as events by jobs. A command runs the same code as its REST twin, once
 * ({@link CommandService}). A refusal is an answer, not a failure; but a lost database connection or an unreachable
 * queue-service is transient: the command is retried until it can be decided.
 */
@ApplicationScoped
public class CommandConsumer {

    private static final Logger LOG = Logger.getLogger(CommandConsumer.class);

    private final CommandService commands;
    private final RecordProcessor records;

    public CommandConsumer(CommandService commands, RecordProcessor records) {
        this.commands = commands;
        this.records = records;
    }

    @Incoming("commands")
    public Uni<Void> consume(Message<SpecificRecord> record) {
        return records.process(CommandService.CONSUMER, record, this::handle);
    }

    /** Runs one command once, or answers its refusal; emits false for a duplicate delivery. */
    private Uni<Boolean> handle(SpecificRecord event) {
        if (!(event instanceof LifecycleCommand command)) {
            LOG.debugf("ignoring %s on the command topic", event.getClass().getSimpleName());
            return Uni.createFrom().item(false);
        }
        // e.g. queue-service unavailable: not the command's fault, so not a rejection; the processor retries it
        return commands.apply(command).onFailure(refused -> refused instanceof ApiException
                        && !FailureClassifier.isTransient(refused))
                .recoverWithUni(refused -> commands.reject(command, (ApiException) refused));
    }
}
