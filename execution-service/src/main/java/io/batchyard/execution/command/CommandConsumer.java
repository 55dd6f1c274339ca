package io.batchyard.execution.command;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.audit.AuditEntry;
import io.batchyard.eventing.Actor;
import io.batchyard.eventing.consumer.FailureClassifier;
import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.execution.LifecycleCommand;
import io.batchyard.schemas.RecordHeaders;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Lifecycle calls sent as events by jobs. A command runs the same code as its REST twin, once
 * ({@link CommandService}). A refusal is an answer, not a failure; but a lost database connection or an unreachable
 * queue-service is transient: the command is retried until it can be decided.
 *
 * <p>The bearer token in a command's {@code authorization} header is read once and then taken off the record, and the
 * record is stamped with who sent it instead ({@link #ACTOR_HEADER}: the verified subject, or {@code anonymous}). A
 * command that is dead-lettered is copied with its headers, so its dead letter names its sender and carries no
 * credential; nothing stored about a command (its audit entry, its ledger row) holds more than that name.
 */
@ApplicationScoped
public class CommandConsumer {

    /** Record header naming a consumed command's verified sender, on the command's dead letter. */
    public static final String ACTOR_HEADER = "actor";

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
        Headers headers = record.getMetadata(IncomingKafkaRecordMetadata.class)
                .map(IncomingKafkaRecordMetadata::getHeaders).orElse(null);
        String token = null;
        if (headers != null) {
            Header header = headers.lastHeader(RecordHeaders.AUTHORIZATION);
            token = header == null || header.value() == null ? null
                    : new String(header.value(), StandardCharsets.UTF_8);
            headers.remove(RecordHeaders.AUTHORIZATION);
            stamp(headers, AuditEntry.ANONYMOUS);
        }
        String bearer = token;
        return records.process(CommandService.CONSUMER, record, event -> handle(event, bearer, headers));
    }

    /** Runs one command once, or answers its refusal; emits false for a duplicate delivery. */
    private Uni<Boolean> handle(SpecificRecord event, String token, Headers headers) {
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
                    if (headers != null) {
                        stamp(headers, caller.name());
                    }
                    // The command's events carry who sent it.
                    Actor.set(caller.name());
                    return commands.apply(command, caller);
                })
                .onFailure(refused -> refused instanceof ApiException
                        && !FailureClassifier.isTransient(refused))
                .recoverWithUni(refused -> commands.reject(command, (ApiException) refused, subject.get()));
    }

    private static void stamp(Headers headers, String actor) {
        headers.remove(ACTOR_HEADER);
        headers.add(ACTOR_HEADER, actor.getBytes(StandardCharsets.UTF_8));
    }
}
