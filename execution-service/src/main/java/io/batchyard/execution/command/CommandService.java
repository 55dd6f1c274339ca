package io.batchyard.execution.command;

import io.batchyard.audit.AuditEntry;
import io.batchyard.audit.AuditService;
import java.util.function.Supplier;
import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.eventing.Outbox;
import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.execution.CommandRejected;
import io.batchyard.events.execution.LifecycleCommand;
import io.batchyard.execution.runs.FailureReason;
import io.batchyard.execution.lifecycle.LifecycleService;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A lifecycle command, applied once: its id enters the ledger in the same transaction as its effect (the lifecycle
 * call joins it), or, when it is refused, in the transaction that publishes the rejection.
 */
@ApplicationScoped
public class CommandService {

    static final String CONSUMER = "execution-commands";

    private final LifecycleService lifecycle;
    private final ProcessedEventLedger ledger;
    private final Outbox outbox;
    private final AuditService audit;

    public CommandService(LifecycleService lifecycle, ProcessedEventLedger ledger, Outbox outbox,
                          AuditService audit) {
        this.lifecycle = lifecycle;
        this.ledger = ledger;
        this.outbox = outbox;
        this.audit = audit;
    }

    /** Runs one command once; false for a duplicate delivery. A refusal fails it and rolls its ledger row back. */
    @WithTransaction
    public Uni<Boolean> apply(LifecycleCommand c, Caller caller) {
        String correlation = Events.headerOf(c).getEventId();
        Supplier<Uni<?>> effect = () -> switch (c.getCommand()) {
            case INIT_JOB -> lifecycle.initJob(caller, c.getProcessId(), c.getMaxBatch(), correlation);
            case INIT_STEP -> lifecycle.initStep(caller, c.getProcessId(), correlation);
            case HALT_STEP -> lifecycle.haltStep(caller, c.getProcessId(), correlation);
            case TERM_STEP -> lifecycle.termStep(caller, c.getProcessId(), correlation);
            case HALT_JOB -> lifecycle.haltJob(caller, c.getProcessId(), c.getBatchMarking(), correlation);
            case TERM_JOB -> lifecycle.termJob(caller, c.getProcessId(),
                    new FailureReason(c.getErrorCode(), c.getErrorText()), correlation);
        };
        // Audited with the effect and the ledger row: a redelivered command is neither applied nor audited twice.
        return ledger.once(CONSUMER, c, () -> effect.get().call(() -> audit.recordInTransaction(
                entry(c, caller.name(), "ACCEPTED", null, correlation))));
    }

    /** Answers a refused command with {@code CommandRejected}, once; false for a duplicate delivery. */
    @WithTransaction
    public Uni<Boolean> reject(LifecycleCommand c, ApiException refused, String subject) {
        String correlation = Events.headerOf(c).getEventId();
        return ledger.once(CONSUMER, c, () -> audit.recordInTransaction(
                entry(c, subject, "REJECTED", refused.code(), correlation)).chain(() -> outbox.append(Topics.EXECUTION_REJECTIONS, c.getProcessId(),
                CommandRejected.newBuilder()
                        .setHeader(Events.header("execution-service", null, correlation))
                        .setCommand(c.getCommand()).setProcessId(c.getProcessId())
                        .setCode(refused.code()).setMessage(refused.title() + ": " + refused.getMessage())
                        .build())));
    }

    private static AuditEntry entry(LifecycleCommand c, String subject, String outcome, Integer code,
                                    String correlation) {
        return AuditEntry.of(subject, AuditEntry.Channel.COMMAND, c.getCommand().name(), c.getProcessId(), outcome,
                code, correlation);
    }
}
