package io.batchyard.execution.command;

import io.batchyard.api.ApiException;
import io.batchyard.eventing.Outbox;
import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.eventing.consumer.FailureClassifier;
import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.execution.CommandRejected;
import io.batchyard.events.execution.LifecycleCommand;
import io.batchyard.execution.lifecycle.Lifecycle;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletionStage;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;
import org.jdbi.v3.core.Jdbi;

/**
 * Lifecycle calls sent as events by jobs. A command runs the same code as its REST twin; its id enters the ledger in
 * the same transaction as its effect, or, when it is refused, in the transaction that publishes the rejection — so a
 * redelivered command is answered once. A refusal is an answer, not a failure; but a lost database connection or an
 * unreachable queue-service is transient: the command is retried until it can be decided.
 */
@ApplicationScoped
public class CommandConsumer {

    private static final Logger LOG = Logger.getLogger(CommandConsumer.class);
    static final String CONSUMER = "execution-commands";

    @Inject
    Jdbi jdbi;

    @Inject
    Lifecycle lifecycle;

    @Inject
    ProcessedEventLedger ledger;

    @Inject
    Outbox outbox;

    @Inject
    RecordProcessor records;

    @Incoming("commands")
    @Blocking
    public CompletionStage<Void> consume(Message<SpecificRecord> record) {
        return records.process(CONSUMER, record, event -> {
            if (event instanceof LifecycleCommand command) {
                handle(command);
            } else {
                LOG.debugf("ignoring %s on the command topic", event.getClass().getSimpleName());
            }
        });
    }

    /** Runs one command once; returns false for a duplicate delivery. */
    public boolean handle(LifecycleCommand c) {
        String correlation = Events.headerOf(c).getEventId();
        try {
            return jdbi.inTransaction(tx -> {
                if (!ledger.record(tx, CONSUMER, c)) {
                    return false;
                }
                switch (c.getCommand()) {
                    case INIT_JOB -> lifecycle.initJob(tx, c.getProcessId(), c.getMaxBatch(), correlation);
                    case INIT_STEP -> lifecycle.initStep(tx, c.getProcessId(), correlation);
                    case HALT_STEP -> lifecycle.haltStep(tx, c.getProcessId(), correlation);
                    case TERM_STEP -> lifecycle.termStep(tx, c.getProcessId(), correlation);
                    case HALT_JOB -> lifecycle.haltJob(tx, c.getProcessId(), c.getBatchMarking(), correlation);
                    case TERM_JOB -> lifecycle.termJob(tx, c.getProcessId(), correlation);
                }
                return true;
            });
        } catch (ApiException refused) {
            if (FailureClassifier.isTransient(refused)) {
                throw refused; // e.g. queue-service unavailable: not the command's fault, so not a rejection
            }
            return jdbi.inTransaction(tx -> {
                if (!ledger.record(tx, CONSUMER, c)) {
                    return false;
                }
                outbox.append(tx, Topics.EXECUTION_REJECTIONS, c.getProcessId(), CommandRejected.newBuilder()
                        .setHeader(Events.header("execution-service", null, correlation))
                        .setCommand(c.getCommand()).setProcessId(c.getProcessId())
                        .setCode(refused.code()).setMessage(refused.title() + ": " + refused.getMessage())
                        .build());
                return true;
            });
        }
    }
}
