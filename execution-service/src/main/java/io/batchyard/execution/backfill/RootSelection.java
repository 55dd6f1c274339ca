package io.batchyard.execution.backfill;

import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.bucket.BucketPattern;
import io.batchyard.execution.bucket.BucketStatus;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.schemas.backfill.ImpactResult;
import io.batchyard.schemas.backfill.ImpactUnit;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Which of the roots' work a backfill redoes, free of I/O, from the roots' bucket ledger rows in the range and the
 * request's mode: {@code all} redoes every run of the range (completed, failed, running) and every bucket that never
 * ran, and follows their output; {@code failed} only the failed runs; {@code missing} only the buckets (and rows of
 * restated batches) that never ran. A failed or missing unit produced nothing anyone consumed, so only {@code all}
 * cascades. A date bucket range (YYYYMMDD, YYYYMMDDHH) counts every bucket in it; any other range counts the
 * ledger's buckets in it.
 */
final class RootSelection {

    static final String ALL = "all";
    static final String FAILED = "failed";
    static final String MISSING = "missing";

    private final String mode;
    private final List<BucketStatus> ledger;
    private final List<Long> runIds;
    private final List<ImpactUnit> missingBuckets;

    private RootSelection(String mode, List<BucketStatus> ledger, List<Long> runIds, List<ImpactUnit> missingBuckets) {
        this.mode = mode;
        this.ledger = ledger;
        this.runIds = runIds;
        this.missingBuckets = missingBuckets;
    }

    static RootSelection of(BackfillRequest request, List<Long> roots, List<BucketStatus> ledger) {
        String mode = request.modeOrDefault();
        Set<State> redone = switch (mode) {
            case FAILED -> Set.of(State.FAILED);
            case MISSING -> Set.of();
            default -> Set.of(State.COMPLETE, State.FAILED, State.RUNNING);
        };
        List<Long> runs = ledger.stream().filter(b -> redone.contains(b.status()) && b.instanceExecId() != null)
                .map(BucketStatus::instanceExecId).distinct().sorted().toList();
        List<ImpactUnit> missing = new ArrayList<>();
        if (request.hasBucketRange() && !FAILED.equals(mode)) {
            Map<Long, Set<String>> ran = ledger.stream().filter(b -> b.status() != State.INIT)
                    .collect(Collectors.groupingBy(BucketStatus::processId,
                            Collectors.mapping(BucketStatus::bucket, Collectors.toSet())));
            for (long root : roots) {
                for (String bucket : bucketsOf(request, root, ledger)) {
                    if (!ran.getOrDefault(root, Set.of()).contains(bucket)) {
                        missing.add(new ImpactUnit(root, null, null, "MISSING", bucket, true, List.of(), List.of()));
                    }
                }
            }
        }
        return new RootSelection(mode, List.copyOf(ledger), runs, List.copyOf(missing));
    }

    private static List<String> bucketsOf(BackfillRequest request, long root, List<BucketStatus> ledger) {
        for (BucketPattern pattern : BucketPattern.values()) {
            if (pattern.matches(request.fromBucket()) && pattern.matches(request.toBucket())) {
                try {
                    return pattern.range(request.fromBucket(), request.toBucket());
                } catch (IllegalArgumentException e) {
                    throw ExecutionError.INVALID_BACKFILL.exception(e.getMessage());
                }
            }
        }
        return ledger.stream().filter(b -> b.processId() == root).map(BucketStatus::bucket).sorted().toList();
    }

    /** The root runs queue-service is asked about. */
    List<Long> runIds() {
        return runIds;
    }

    boolean cascades(BackfillRequest request) {
        return ALL.equals(mode) && request.cascadeOrDefault();
    }

    /** queue-service's units the mode keeps, and the buckets that never ran. */
    List<ImpactUnit> units(ImpactResult answer) {
        List<ImpactUnit> kept = new ArrayList<>(answer.units().stream().filter(u -> switch (mode) {
            case FAILED -> "FAILED".equals(u.status());
            case MISSING -> "MISSING".equals(u.status());
            default -> true;
        }).toList());
        kept.addAll(missingBuckets);
        return kept;
    }

    /**
     * The plan's fingerprint: queue-service's (of the queue and archive rows it read) and the roots' ledger rows in
     * the range, so that a bucket that ran, failed or appeared since makes the plan stale too.
     */
    String fingerprint(ImpactResult answer) {
        TreeSet<String> lines = new TreeSet<>();
        for (BucketStatus b : ledger) {
            lines.add(b.processId() + ":" + b.bucket() + ":" + b.status() + ":" + b.instanceExecId());
        }
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(answer.fingerprint().getBytes(StandardCharsets.UTF_8));
            for (String line : lines) {
                digest.update((byte) '\n');
                digest.update(line.getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** A unit's bucket: its run's batch marking when the run has one, else the marking its inputs carried. */
    static BackfillPlanner.Buckets buckets(Map<Long, String> runMarkings) {
        Map<Long, String> markings = new HashMap<>(runMarkings);
        return u -> u.runId() != null && markings.containsKey(u.runId()) ? markings.get(u.runId()) : u.marking();
    }
}
