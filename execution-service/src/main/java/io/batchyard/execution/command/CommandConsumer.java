package io.batchyard.execution.command;

import io.batchyard.audit.AuditEntry;
import io.batchyard.eventing.Actor;
import java.util.concurrent.atomic.AtomicReference;
import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.eventing.consumer.FailureClassifier;
import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.execution.LifecycleCommand;
import io.batchyard.schemas.RecordHeaders;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.nio.charset.StandardCharsets;
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
    private final CommandAuthorization authorization;
    private final RecordProcessor records;

    public CommandConsumer(CommandService commands, CommandAuthorization authorization, RecordProcessor records) {
        this.commands = commands;
        this.authorization = authorization;
        this.records = records;
    }

    @Incoming("commands")
    public Uni<Void> consume(Message<SpecificRecord> record) {
        String token = record.getMetadata(IncomingKafkaRecordMetadata.class)
                .map(kafka -> kafka.getHeaders().lastHeader(RecordHeaders.AUTHORIZATION))
                .map(header -> new String(header.value(), StandardCharsets.UTF_8))
                .orElse(null);
        return records.process(CommandService.CONSUMER, record, event -> handle(event, token));
    }

    /** Runs one command once, or answers its refusal; emits false for a duplicate delivery. */
    private Uni<Boolean> handle(SpecificRecord event, String token) {
        if (!(event instanceof LifecycleCommand command)) {
            LOG.debugf("ignoring %s on the command topic", event.getClass().getSimpleName());
            return Uni.createFrom().item(false);
        }
        // A refused identity is answered like any other refusal. A transient failure (queue-service unavailable, the
        // identity provider unreachable) is not the command's fault: the processor retries it.
        AtomicReference<String> subject = new AtomicReference<>(AuditEntry.ANONYMOUS);
        return authorization.check(token).chain(identity -> {
                    Caller caller = Caller.of(identity);
                    subject.set(caller.name());
                    // The command's events carry who sent it.
                    Actor.set(caller.name());
                    return commands.apply(command, caller);
                })
                .onFailure(refused -> refused instanceof ApiException
                        && !FailureClassifier.isTransient(refused))
                .recoverWithUni(refused -> commands.reject(command, (ApiException) refused, subject.get()));
    }
}
