package io.batchyard.lineage.openlineage;

import static io.batchyard.lineage.LineageError.UNKNOWN_RUN;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.eventing.Outbox;
import io.batchyard.events.lineage.OpenLineageRunEvent;
import io.batchyard.lineage.access.ProcessAccess;
import io.batchyard.lineage.openlineage.OpenLineageRepository.StatementRow;
import io.batchyard.lineage.openlineage.RunEventBuilder.Relation;
import io.batchyard.lineage.process.ProcessLineage;
import io.batchyard.lineage.process.RunService;
import io.batchyard.lineage.process.RunTransitions;
import io.batchyard.lineage.registry.RegistryService;
import io.batchyard.lineage.schema.TableSchemaService;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * OpenLineage RunEvents of runs and step runs: built on request ({@link #runEvent}) and, when a transport is
 * configured, queued for pushing as runs start and end ({@link #changed}), in the transaction of the lifecycle event.
 */
@ApplicationScoped
public class OpenLineageService implements RunTransitions {

    private static final String PRODUCER = "lineage-service";

    private final RunService runs;
    private final OpenLineageRepository openLineage;
    private final TableSchemaService schemas;
    private final OpenLineageSettings settings;
    private final RegistryService registry;
    private final ObjectMapper json;
    private final ProcessAccess access;
    private final Outbox outbox;

    public OpenLineageService(RunService runs, OpenLineageRepository openLineage, TableSchemaService schemas,
                              OpenLineageSettings settings, ObjectMapper json, RegistryService registry,
                              ProcessAccess access, Outbox outbox) {
        this.outbox = outbox;
        this.registry = registry;
        this.access = access;
        this.runs = runs;
        this.openLineage = openLineage;
        this.schemas = schemas;
        this.settings = settings;
        this.json = json;
    }

    /** Where the event comes from: a run's recorded state and time, or (null) the run's stored state. */
    private record Moment(String eventType, OffsetDateTime at) {
    }

    /**
     * The run's event as its recorded state says, for a caller who may read the application of the run's process; to
     * others the run is unknown. A write because a run's id is made the first time it is asked.
     */
    @WithTransaction
    public Uni<Map<String, Object>> runEvent(Caller caller, long instanceExecId) {
        Supplier<ApiException> unknown = () -> UNKNOWN_RUN.exception(
                "no run event and no query names instance exec id " + instanceExecId);
        return processOf(instanceExecId)
                .chain(process -> process.isEmpty() ? Uni.createFrom().<Void>failure(unknown.get())
                        : access.require(caller, process.get(), Permission.READ, "run " + instanceExecId, unknown))
                .chain(() -> event(instanceExecId, null))
                .map(found -> found.orElseThrow(unknown));
    }

    /**
     * The process whose application a run belongs to: a job run's process, a step run's parent (a step belongs to its
     * parent's application), else the process of the run's first registered query.
     */
    private Uni<Optional<Long>> processOf(long instanceExecId) {
        return runs.run(instanceExecId).chain(run -> run.isPresent()
                ? Uni.createFrom().item(run.map(ProcessLineage.Run::processId))
                : runs.stepRun(instanceExecId).chain(step -> step.isPresent()
                        ? Uni.createFrom().item(step.map(ProcessLineage.StepRun::parentProcessId))
                        : openLineage.statements(instanceExecId, false)
                                .map(statements -> statements.stream().findFirst().map(StatementRow::processId))));
    }

    /** Joins the caller's transaction: the queued events commit with the lifecycle state they describe. */
    @Override
    public Uni<Void> changed(Transition transition) {
        if (settings.transports().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Moment moment = new Moment(eventType(transition.state()), transition.at());
        Uni<Void> own = enqueue(transition.instanceExecId(), moment);
        if (!transition.step()) {
            return own;
        }
        // A step starting or ending is progress of its parent run: RUNNING for the parent, with the datasets its
        // steps have registered so far, as long as the parent has not ended (a late step event changes nothing).
        return own.chain(() -> runs.stepRun(transition.instanceExecId())).chain(step -> step
                .map(s -> runs.run(s.parentInstanceExecId()).chain(parent -> parent
                        .filter(p -> "RUNNING".equals(p.state()))
                        .map(p -> enqueue(p.instanceExecId(), new Moment("RUNNING", transition.at())))
                        .orElseGet(() -> Uni.createFrom().voidItem())))
                .orElseGet(() -> Uni.createFrom().voidItem()));
    }

    /** With push off, {@link #changed} queues nothing and reads nothing. */
    @Override
    public boolean readsProjection() {
        return !settings.transports().isEmpty();
    }

    /** Appends the run's event to the outbox, keyed by its run id, so that the run's events are delivered in order. */
    private Uni<Void> enqueue(long run, Moment moment) {
        return event(run, moment).chain(found -> found.map(e -> {
            String payload = write(e);
            UUID runId = UUID.fromString((String) ((Map<?, ?>) e.get("run")).get("runId"));
            return outbox.append(Topics.LINEAGE_OPENLINEAGE, runId, OpenLineageRunEvent.newBuilder()
                    .setHeader(Events.header(PRODUCER, run, null)).setRunId(runId.toString())
                    .setEventType(moment.eventType()).setRunEvent(payload).build());
        }).orElseGet(() -> Uni.createFrom().voidItem()));
    }

    private Uni<Optional<Map<String, Object>>> event(long id, Moment moment) {
        return runs.run(id).chain(run -> runs.stepRun(id).chain(step -> {
            if (run.isPresent()) {
                ProcessLineage.Run r = run.get();
                Moment m = moment != null ? moment : new Moment(eventType(r.state()),
                        r.endedAt() != null ? r.endedAt() : r.startedAt());
                return build(id, r.processId(), null, m, r.batchMarking(), null, true);
            }
            if (step.isPresent()) {
                ProcessLineage.StepRun s = step.get();
                Moment m = moment != null ? moment : new Moment(eventType(s.state()),
                        s.endedAt() != null ? s.endedAt() : s.startedAt());
                return runs.run(s.parentInstanceExecId()).chain(parent -> openLineage.runId(s.parentInstanceExecId())
                        .chain(parentId -> build(id, s.subProcessId(), s.parentProcessId(), m,
                                parent.map(ProcessLineage.Run::batchMarking).orElse(null),
                                new RunEventBuilder.Parent(parentId, RunEventBuilder.jobName(s.parentProcessId())),
                                false)));
            }
            // Known only from its queries: no lifecycle says how it went, so OTHER at its last registration.
            return openLineage.statements(id, false).chain(statements -> statements.isEmpty()
                    ? Uni.createFrom().item(Optional.<Map<String, Object>>empty())
                    : build(id, statements.get(0).processId(), null, new Moment("OTHER", statements.stream()
                            .map(StatementRow::registeredAt).max(Comparator.naturalOrder()).orElseThrow()),
                            null, null, false));
        }));
    }

    private Uni<Optional<Map<String, Object>>> build(long id, long processId, Long parentProcessId, Moment moment,
                                                     String marking, RunEventBuilder.Parent parent, boolean withSteps) {
        return openLineage.statements(id, withSteps).chain(statements -> openLineage.relations(
                        statements.stream().map(StatementRow::queryId).distinct().toList())
                .chain(relations -> {
                    List<RunEventBuilder.Statement> ran = statements.stream()
                            .map(s -> new RunEventBuilder.Statement(s.text(), s.defaultDatabase())).toList();
                    Set<String> tables = tables(relations, ran);
                    return schemas.columns(tables).chain(columns -> schemas.types(tables).chain(types -> registry
                            .applicationName(processId, parentProcessId).chain(application -> registry
                            .server(processId, parentProcessId).chain(server -> openLineage.runId(id)
                            .map(runId -> Optional.of(RunEventBuilder.build(
                                    new RunEventBuilder.Naming(settings.jobNamespaceOf(application.orElse(null)),
                                            settings.producer()),
                                    new RunEventBuilder.Run(runId, moment.eventType(), moment.at(),
                                            RunEventBuilder.jobName(processId), parent, marking,
                                            settings.namespaceOf(processId, parentProcessId, application.orElse(null),
                                                    server.orElse(null)),
                                            ran, relations, columns, types))))))));
                }));
    }

    private static Set<String> tables(List<Relation> relations, List<RunEventBuilder.Statement> statements) {
        Set<String> tables = new TreeSet<>(RunEventBuilder.lifecycle(statements).keySet());
        for (Relation r : relations) {
            if (r.fromBaseColumn()) {
                tables.add(r.fromTable());
            }
            if (r.toBaseColumn()) {
                tables.add(r.toTable());
            }
            if (r.toBaseTable()) {
                tables.add(r.toName());
            }
        }
        return tables;
    }

    private String write(Map<String, Object> event) {
        try {
            return json.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a RunEvent of maps and strings always serialises", e);
        }
    }

    private static String eventType(String state) {
        if (state == null) {
            return "OTHER";
        }
        return switch (state) {
            case "RUNNING" -> "START";
            case "SUCCESS" -> "COMPLETE";
            case "FAILED" -> "FAIL";
            default -> "OTHER";
        };
    }
}
