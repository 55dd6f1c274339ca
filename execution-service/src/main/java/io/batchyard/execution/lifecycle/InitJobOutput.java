package io.batchyard.execution.lifecycle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * InitJob's output keys as the workflow captures them (the reference's InitJob.parseBean), built from the claimed rows.
 * Where the reference leaked hash order and the text "null" into {@code target-batch-marking}, markings here are
 * distinct, non-null and sorted.
 */
public final class InitJobOutput {

    /**
     * One claimed queue row, as queue-service returns it: the queue row ({@code queueId}), its consuming step
     * ({@code processId}), the source batch and the run's target batch, the marking, the process that enqueued the
     * batch ({@code sourceProcessId}, null for a placeholder row) and the run that produced it, and the batch's files.
     * {@code queueId} and {@code sourceProcessId} are null when an older queue-service did not send them.
     */
    public record ClaimedRow(Long queueId, long processId, long sourceBatchId, long targetBatchId, String batchMarking,
                             Long sourceProcessId, Long sourceInstanceExecId, String fileList, String batchList) {
    }

    private InitJobOutput() {
    }

    public static Map<String, String> of(long instanceExecId, long targetBatchId, Long lastRecoverableSpId, List<ClaimedRow> rows) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("instance-exec-id", String.valueOf(instanceExecId));
        out.put("target-batch-id", String.valueOf(targetBatchId));
        out.put("last-recoverable-sp-id", lastRecoverableSpId == null ? "" : String.valueOf(lastRecoverableSpId));
        out.put("target-batch-marking", targetBatchMarking(rows));
        Map<Long, List<ClaimedRow>> bySp = new TreeMap<>(rows.stream().collect(Collectors.groupingBy(ClaimedRow::processId)));
        bySp.forEach((sp, spRows) -> {
            out.put("min-batch-id-map." + sp, String.valueOf(spRows.stream().mapToLong(ClaimedRow::sourceBatchId).min().orElseThrow()));
            out.put("max-batch-id-map." + sp, String.valueOf(spRows.stream().mapToLong(ClaimedRow::sourceBatchId).max().orElseThrow()));
            List<String> dates = new ArrayList<>();
            for (ClaimedRow r : spRows) {
                dates.addAll(businessDates(r.batchMarking()));
            }
            dates.sort(null);
            out.put("min-batch-marking-map." + sp, dates.isEmpty() ? "" : dates.get(0));
            out.put("max-batch-marking-map." + sp, dates.isEmpty() ? "" : dates.get(dates.size() - 1));
            List<Long> sources = spRows.stream().map(ClaimedRow::sourceInstanceExecId).filter(Objects::nonNull).toList();
            if (!sources.isEmpty()) {
                out.put("min-source-instance-exec-id-map." + sp, String.valueOf(sources.stream().mapToLong(Long::longValue).min().orElseThrow()));
                out.put("max-source-instance-exec-id-map." + sp, String.valueOf(sources.stream().mapToLong(Long::longValue).max().orElseThrow()));
            }
            out.put("file-list-map.FileList." + sp, join(spRows.stream().map(ClaimedRow::fileList).toList()));
            out.put("batch-list-map.FileBatchList." + sp, join(spRows.stream().map(ClaimedRow::batchList).toList()));
        });
        return out;
    }

    /** Distinct raw markings over all rows, sorted, comma-joined ("" when none). */
    public static String targetBatchMarking(List<ClaimedRow> rows) {
        TreeSet<String> markings = new TreeSet<>();
        for (ClaimedRow r : rows) {
            if (r.batchMarking() != null && !r.batchMarking().isBlank()) {
                markings.add(r.batchMarking());
            }
        }
        return String.join(",", markings);
    }

    /** Each comma token of a marking with everything up to and including its last '@' removed, trimmed. */
    static List<String> businessDates(String marking) {
        if (marking == null) {
            return List.of("");
        }
        List<String> dates = new ArrayList<>();
        for (String token : marking.split(",")) {
            int at = token.lastIndexOf('@');
            dates.add((at >= 0 ? token.substring(at + 1) : token).trim());
        }
        return dates;
    }

    private static String join(List<String> parts) {
        return parts.stream().filter(p -> p != null && !p.isEmpty()).collect(Collectors.joining(","));
    }
}
