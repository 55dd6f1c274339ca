package io.batchyard.queue.backfill;

import io.batchyard.schemas.backfill.ImpactCause;
import io.batchyard.schemas.backfill.ImpactResult;
import io.batchyard.schemas.backfill.ImpactUnit;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The state of one impact walk, free of I/O: the rows read so far become units of work (a consuming run, or a row
 * nobody claimed yet), each with the affected batches it consumed and which unit produced them. The walk only ever
 * follows a completed unit's output batch, and only to rows a run claimed: a run that never consumed an affected batch
 * is never listed. Each batch is followed once, so a diamond (two paths to one run) lists the run once with two causes,
 * and a cycle ends.
 */
final class ImpactWalk {

    static final String COMPLETED = "COMPLETED";
    static final String FAILED = "FAILED";
    static final String RUNNING = "RUNNING";
    static final String MISSING = "MISSING";

    private final Map<String, Unit> units = new LinkedHashMap<>();
    private final Set<Long> followed = new HashSet<>();
    private final Set<String> rowsRead = new TreeSet<>();

    /** Root runs, as their input rows show them: every input they consumed (the placeholder batch 0 left out). */
    void rootRuns(Collection<ConsumedRow> inputs) {
        for (ConsumedRow row : inputs) {
            rowsRead.add(row.fingerprintLine());
            if (row.parentProcessId() != null && row.consumerRunId() != null) {
                unit(row, true).consumed(row.sourceBatchId());
            }
        }
    }

    /**
     * Rows that offer a restated batch: a root process's run that consumed it, or its row still waiting for one, is a
     * root unit; other processes' rows are only fingerprinted (the walk reaches them through a root's output).
     */
    void restated(Collection<ConsumedRow> rows, Set<Long> rootProcessIds) {
        for (ConsumedRow row : rows) {
            rowsRead.add(row.fingerprintLine());
            if (row.parentProcessId() != null && rootProcessIds.contains(row.parentProcessId())) {
                unit(row, true).consumed(row.sourceBatchId());
            }
        }
    }

    /** The output batches of completed units that the walk has not followed yet; marks them followed. */
    Set<Long> nextOutputs() {
        Set<Long> next = new HashSet<>();
        for (Unit u : units.values()) {
            if (COMPLETED.equals(u.status) && u.targetBatchId != null && followed.add(u.targetBatchId)) {
                next.add(u.targetBatchId);
            }
        }
        return next;
    }

    /** Rows that offer followed output batches: each claimed one makes its run a unit caused by the producer. */
    void consumed(Collection<ConsumedRow> rows) {
        Map<Long, Unit> producers = new LinkedHashMap<>();
        for (Unit u : units.values()) {
            if (u.targetBatchId != null && COMPLETED.equals(u.status)) {
                producers.putIfAbsent(u.targetBatchId, u);
            }
        }
        for (ConsumedRow row : rows) {
            rowsRead.add(row.fingerprintLine());
            Unit producer = producers.get(row.sourceBatchId());
            if (row.consumerRunId() == null || row.parentProcessId() == null || producer == null) {
                continue;
            }
            Unit consumer = unit(row, false);
            consumer.consumed(row.sourceBatchId());
            consumer.causes.add(new ImpactCause(producer.processId, producer.runId, row.sourceBatchId()));
        }
    }

    ImpactResult result() {
        List<ImpactUnit> answer = units.values().stream()
                .sorted(Comparator.comparingLong((Unit u) -> u.processId)
                        .thenComparing(u -> u.runId, Comparator.nullsFirst(Comparator.naturalOrder()))
                        .thenComparing(u -> u.inputs.isEmpty() ? 0L : u.inputs.first()))
                .map(Unit::answer).toList();
        return new ImpactResult(fingerprint(rowsRead), rowsRead.size(), answer);
    }

    /** SHA-256 over the rows read, in a fixed order: any change to one of them, or one more or fewer, changes it. */
    static String fingerprint(Collection<String> lines) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String line : lines) {
                digest.update(line.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) '\n');
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    private Unit unit(ConsumedRow row, boolean root) {
        String key = row.consumerRunId() != null ? "run:" + row.consumerRunId()
                : "pending:" + row.parentProcessId() + ':' + row.sourceBatchId();
        Unit unit = units.computeIfAbsent(key, k -> new Unit(row));
        unit.root |= root;
        if (unit.marking == null) {
            unit.marking = row.batchMarking();
        }
        return unit;
    }

    private static final class Unit {
        final long processId;
        final Long runId;
        final Long targetBatchId;
        final String status;
        String marking;
        boolean root;
        final TreeSet<Long> inputs = new TreeSet<>();
        final List<ImpactCause> causes = new ArrayList<>();

        Unit(ConsumedRow row) {
            processId = row.parentProcessId();
            runId = row.consumerRunId();
            targetBatchId = row.targetBatchId();
            status = row.consumerRunId() == null ? MISSING
                    : row.targetFailed() ? FAILED : row.archived() ? COMPLETED : RUNNING;
        }

        void consumed(long batchId) {
            if (batchId != 0) {
                inputs.add(batchId);
            }
        }

        ImpactUnit answer() {
            List<ImpactCause> sorted = causes.stream().distinct()
                    .sorted(Comparator.comparingLong(ImpactCause::batchId).thenComparingLong(ImpactCause::runId))
                    .toList();
            return new ImpactUnit(processId, runId, targetBatchId, status, marking, root, List.copyOf(inputs), sorted);
        }
    }
}
