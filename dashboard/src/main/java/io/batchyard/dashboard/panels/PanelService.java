package io.batchyard.dashboard.panels;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.batchyard.api.ApiException;
import io.batchyard.api.CommonErrors;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * The panels that are not in the topics: the runner's "why isn't it running", parents' triggers, data deadlines,
 * backfills, compaction's partitions and merge jobs, and lineage graphs. Each is read from its service when the page
 * asks, with the viewer's own token, so a viewer sees there exactly what the service lets them see. A service's
 * refusal (403, 404, ...) reaches the page unchanged; a service that does not answer within its client's timeouts
 * (application.properties) is a 503 with code 601, never a hung panel.
 */
@ApplicationScoped
public class PanelService {

    /** Deadlines the deadline panel lists of each state. */
    static final int DEADLINES_SHOWN = 20;
    /** Live backfills the backfills panel shows (of each state it asks for, and in all), and ended ones. */
    static final int BACKFILLS_SHOWN = 20;
    static final int ENDED_BACKFILLS_SHOWN = 5;
    static final List<String> LIVE_BACKFILLS = List.of("QUEUED", "RUNNING", "PAUSED", "FAILED");
    static final List<String> ENDED_BACKFILLS = List.of("SUCCEEDED", "CANCELLED");
    /** Partitions and dead merge jobs a compaction panel lists: the services' page size. */
    static final int PAGE = 500;
    static final int DEAD_SHOWN = 20;
    /** Parents one triggers panel call asks about, and the trigger runs shown for each. */
    public static final int TRIGGERS_ASKED = 20;
    static final int TRIGGER_RUNS_SHOWN = 5;

    /** The runner's answer for one stand-alone parent and its run policy (null when it has none). */
    public record Why(long processId, JsonNode explanation, JsonNode policy) {
    }

    /**
     * A parent's data-aware trigger as the triggers panel shows it: its settings, the buckets it waits for with what
     * is missing ({@code /why}'s {@code waiting}, oldest first) and its latest trigger runs with their batches.
     */
    public record Trigger(long processId, String policy, boolean paused, JsonNode settings, JsonNode waiting,
                          JsonNode runs) {
    }

    /** One table's partitions by state (open, closed, switched) and its merge jobs waiting or dead-lettered. */
    public record TableCompaction(String table, int open, int closed, int switched, int pendingJobs, int deadJobs) {
    }

    public record DeadJob(long jobId, long partitionId, String table, String partitionDate, int attempts,
                          String lastError) {
    }

    /** {@code partitionsTotal} may exceed the partitions counted when there are more than one page of them. */
    public record Compaction(List<TableCompaction> tables, long partitionsTotal, long pendingTotal, long deadTotal,
                             List<DeadJob> dead) {
    }

    private final ExecutionApi execution;
    private final QueueApi queue;
    private final LineageApi lineage;
    private final ObjectMapper json;

    public PanelService(@RestClient ExecutionApi execution, @RestClient QueueApi queue, @RestClient LineageApi lineage,
                        ObjectMapper json) {
        this.execution = execution;
        this.queue = queue;
        this.lineage = lineage;
        this.json = json;
    }

    public Uni<Why> why(long pid) {
        Uni<JsonNode> policy = execution.policy(pid).onFailure(e -> status(e) == 404).recoverWithNull();
        return Uni.combine().all().unis(execution.why(pid), policy).asTuple()
                .map(t -> new Why(pid, t.getItem1(), t.getItem2()))
                .onFailure().transform(e -> relayed("execution-service", e));
    }

    /**
     * The triggers of the parents asked about (the page asks for the parents of the queues it shows), those with a
     * policy only: a parent without one, or one the viewer may not read (the service's 404), is left out rather than
     * failing the panel.
     */
    public Uni<List<Trigger>> triggers(List<Long> pids) {
        List<Uni<Trigger>> each = pids.stream().distinct().limit(TRIGGERS_ASKED).map(this::trigger).toList();
        if (each.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Uni.join().all(each).andFailFast().map(all -> all.stream().filter(Objects::nonNull).toList())
                .onFailure().transform(e -> relayed("execution-service", e));
    }

    private Uni<Trigger> trigger(long pid) {
        return execution.trigger(pid).onFailure(e -> status(e) == 404).recoverWithNull().flatMap(settings -> {
            if (settings == null || "none".equals(settings.path("policy").asText())) {
                return Uni.createFrom().nullItem();
            }
            // a parent /why does not explain (not one the runner or a launcher starts) still shows its runs
            Uni<JsonNode> why = execution.why(pid).onFailure(e -> status(e) >= 400 && status(e) < 500)
                    .recoverWithNull();
            return Uni.combine().all().unis(why, execution.triggerRuns(pid, TRIGGER_RUNS_SHOWN)).asTuple()
                    .map(t -> trigger(pid, settings, t.getItem1(), t.getItem2()));
        });
    }

    static Trigger trigger(long pid, JsonNode settings, JsonNode why, JsonNode runs) {
        JsonNode waiting = why == null ? null : why.get("waiting");
        return new Trigger(pid, settings.path("policy").asText(), settings.path("paused").asBoolean(), settings,
                waiting == null || waiting.isNull() ? JsonNodeFactory.instance.arrayNode() : waiting,
                runs.path("items"));
    }

    public Uni<Compaction> compaction() {
        return Uni.combine().all().unis(queue.partitions(PAGE), queue.jobs("PENDING", PAGE), queue.jobs("DEAD", PAGE))
                .asTuple().map(t -> compaction(t.getItem1(), t.getItem2(), t.getItem3()))
                .onFailure().transform(e -> relayed("queue-service", e));
    }

    /**
     * The data deadlines a viewer may read: the next ones due (SET), those at risk and those missed (neither
     * recovered nor waived), each list soonest due first, with its total.
     */
    public record Deadlines(JsonNode next, JsonNode atRisk, JsonNode missed) {
    }

    public Uni<Deadlines> deadlines() {
        return Uni.combine().all().unis(execution.deadlines("SET", DEADLINES_SHOWN),
                        execution.deadlines("AT_RISK", DEADLINES_SHOWN), execution.deadlines("MISSED", DEADLINES_SHOWN))
                .asTuple().map(t -> new Deadlines(t.getItem1(), t.getItem2(), t.getItem3()))
                .onFailure().transform(e -> relayed("execution-service", e));
    }

    /**
     * The backfills a viewer may read (those whose plan lists only processes they may read): the live ones, a failed
     * one among them since it waits for a resume or a cancel, and the last few ended, each list newest first, each
     * backfill with its entries counted per level; and how many there are of each state.
     */
    public record Backfills(Map<String, Long> totals, List<JsonNode> live, List<JsonNode> ended) {
    }

    public Uni<Backfills> backfills() {
        List<Uni<JsonNode>> pages = new ArrayList<>();
        LIVE_BACKFILLS.forEach(state -> pages.add(execution.backfills(state, BACKFILLS_SHOWN)));
        ENDED_BACKFILLS.forEach(state -> pages.add(execution.backfills(state, ENDED_BACKFILLS_SHOWN)));
        return Uni.join().all(pages).andFailFast()
                .map(all -> backfills(all.subList(0, LIVE_BACKFILLS.size()),
                        all.subList(LIVE_BACKFILLS.size(), all.size())))
                .onFailure().transform(e -> relayed("execution-service", e));
    }

    /** The panel from one page per live state and one per ended state, in the order of those lists. */
    static Backfills backfills(List<JsonNode> livePages, List<JsonNode> endedPages) {
        Map<String, Long> totals = new LinkedHashMap<>();
        for (int i = 0; i < livePages.size(); i++) {
            totals.put(LIVE_BACKFILLS.get(i), livePages.get(i).path("total").asLong());
        }
        for (int i = 0; i < endedPages.size(); i++) {
            totals.put(ENDED_BACKFILLS.get(i), endedPages.get(i).path("total").asLong());
        }
        return new Backfills(totals, newest(livePages, BACKFILLS_SHOWN), newest(endedPages, ENDED_BACKFILLS_SHOWN));
    }

    /** The newest {@code shown} items of these pages together; each page is newest first, so they hold them. */
    private static List<JsonNode> newest(List<JsonNode> pages, int shown) {
        List<JsonNode> items = new ArrayList<>();
        pages.forEach(page -> page.path("items").forEach(items::add));
        items.sort(Comparator.comparing((JsonNode b) -> OffsetDateTime.parse(b.path("backfill").path("createdAt")
                .asText()).toInstant()).reversed().thenComparing(b -> b.path("backfill").path("backfillId").asText()));
        return List.copyOf(items.subList(0, Math.min(shown, items.size())));
    }

    public Uni<String> processGraph(long pid) {
        return lineage.processGraph(pid, "svg").onFailure().transform(e -> relayed("lineage-service", e));
    }

    public Uni<String> tableGraph(String table) {
        return lineage.tableGraph(table, "svg").onFailure().transform(e -> relayed("lineage-service", e));
    }

    static Compaction compaction(JsonNode partitions, JsonNode pending, JsonNode dead) {
        Map<Long, String> tableOfPartition = new LinkedHashMap<>();
        Map<Long, String> dateOfPartition = new LinkedHashMap<>();
        Map<String, int[]> byTable = new TreeMap<>();
        for (JsonNode p : partitions.path("items")) {
            String table = p.path("schemaName").asText() + "." + p.path("tableName").asText();
            tableOfPartition.put(p.path("partitionId").asLong(), table);
            dateOfPartition.put(p.path("partitionId").asLong(), p.path("partitionDate").asText());
            int[] counts = byTable.computeIfAbsent(table, t -> new int[5]);
            switch (p.path("state").asText().toUpperCase(Locale.ROOT)) {
                case "CLOSED" -> counts[1]++;
                case "SWITCHED" -> counts[2]++;
                default -> counts[0]++; // NEW and LIVE: still taking objects on the live prefix
            }
        }
        for (JsonNode j : pending.path("items")) {
            byTable.computeIfAbsent(tableOf(tableOfPartition, j), t -> new int[5])[3]++;
        }
        List<DeadJob> deadJobs = new ArrayList<>();
        for (JsonNode j : dead.path("items")) {
            String table = tableOf(tableOfPartition, j);
            byTable.computeIfAbsent(table, t -> new int[5])[4]++;
            if (deadJobs.size() < DEAD_SHOWN) {
                long partition = j.path("partitionId").asLong();
                deadJobs.add(new DeadJob(j.path("jobId").asLong(), partition, table,
                        dateOfPartition.getOrDefault(partition, ""), j.path("attempts").asInt(),
                        j.path("lastError").isNull() ? null : j.path("lastError").asText()));
            }
        }
        List<TableCompaction> tables = new ArrayList<>();
        byTable.forEach((table, c) -> tables.add(new TableCompaction(table, c[0], c[1], c[2], c[3], c[4])));
        return new Compaction(tables, partitions.path("total").asLong(), pending.path("total").asLong(),
                dead.path("total").asLong(), deadJobs);
    }

    private static String tableOf(Map<Long, String> tableOfPartition, JsonNode job) {
        return tableOfPartition.getOrDefault(job.path("partitionId").asLong(),
                "partition " + job.path("partitionId").asLong());
    }

    private static int status(Throwable e) {
        return e instanceof WebApplicationException w ? w.getResponse().getStatus() : -1;
    }

    /** A service's problem+json, passed on with its own status and code; anything else as 601 or 602. */
    private ApiException relayed(String service, Throwable e) {
        if (e instanceof ApiException api) {
            return api;
        }
        if (e instanceof WebApplicationException w) {
            Response r = w.getResponse();
            try {
                JsonNode problem = json.readTree(r.readEntity(String.class));
                if (problem.hasNonNull("code")) {
                    return new ApiException(r.getStatus(), problem.path("code").asInt(), problem.path("title").asText(),
                            service + ": " + problem.path("detail").asText());
                }
            } catch (Exception unreadable) {
                // not a problem document: reported as the service's failure below
            }
            if (r.getStatus() >= 400 && r.getStatus() < 500) {
                CommonErrors shared = CommonErrors.forStatus(r.getStatus());
                return new ApiException(r.getStatus(), shared.code(), shared.title(), service + " answered " + r.getStatus());
            }
            return DashboardError.SERVICE_FAILED.exception(service + " answered " + r.getStatus());
        }
        return DashboardError.SERVICE_UNREACHABLE.exception(service + " did not answer: " + describe(e));
    }

    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : " (" + root.getMessage() + ")");
    }
}
