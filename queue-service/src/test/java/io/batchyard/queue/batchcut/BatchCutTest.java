package io.batchyard.queue.batchcut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.api.ApiException;
import io.batchyard.queue.consumption.QueueRow;
import io.batchyard.readmodel.ProcessDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BatchCutTest {

    private long queueId;

    @Test
    void theSeedExampleCutsAtEodAndTakesOneBatchWithoutAPattern() {
        ProcessDefinition s124 = step(124, List.of(85L), null);
        ProcessDefinition s125 = step(125, List.of(85L), "EOD");
        List<QueueRow> rows = List.of(row(124, 11, 85, "2014-12-16"), row(125, 11, 85, "2014-12-16"),
                row(124, 22, 85, "2014-12-16"), row(125, 22, 85, "2014-12-16"), row(124, 33, 85, "EOD@2014-12-16"),
                row(125, 33, 85, "EOD@2014-12-16"));
        Map<Long, List<QueueRow>> byStep = byStep(rows);
        BatchCut.validate(List.of(s124, s125), byStep, 1);
        List<BatchCut.Claim> claims = BatchCut.select(List.of(s124, s125), byStep, 1);
        assertThat(claims).hasSize(2);
        assertThat(batches(claims.get(0), rows)).containsExactly(11L);
        assertThat(batches(claims.get(1), rows)).containsExactly(11L, 22L, 33L);
        assertThat(claims).allMatch(BatchCut.Claim::access);
    }

    @Test
    void aCutPatternLooksOnlyAtTheStepsOwnRows() {
        ProcessDefinition s124 = step(124, List.of(85L), null);
        ProcessDefinition s125 = step(125, List.of(85L), "EOD");
        // EOD is queued for 124 only: 125 must not be satisfied by it (the reference checked the whole queue)
        Map<Long, List<QueueRow>> rows = byStep(List.of(row(124, 33, 85, "EOD@2014-12-16"), row(125, 22, 85, "2014-12-16")));
        assertCode(() -> BatchCut.validate(List.of(s124, s125), rows, 1), 109, "sub_pid=125");
    }

    @Test
    void presenceIsCheckedPerStepAndPerEnqueuer() {
        ProcessDefinition a = step(1, List.of(85L), null);
        ProcessDefinition b = step(2, List.of(85L), null);
        // a has many rows, b none: the reference's total count would have passed
        Map<Long, List<QueueRow>> rows = byStep(List.of(row(1, 11, 85, null), row(1, 22, 85, null)));
        assertCode(() -> BatchCut.validate(List.of(a, b), rows, 1), 112, "sub_pid=2");

        ProcessDefinition multi = step(3, List.of(85L, 86L), null);
        Map<Long, List<QueueRow>> onlyOne = byStep(List.of(row(3, 11, 85, null)));
        assertCode(() -> BatchCut.validate(List.of(multi), onlyOne, 1), 109, "enqueuing process 86");
    }

    @Test
    void aMultiEnqueuerStepTakesTheOldestBatchOfEachEnqueuer() {
        ProcessDefinition multi = step(3, List.of(85L, 86L), null);
        List<QueueRow> rows = List.of(row(3, 11, 85, null), row(3, 12, 85, null), row(3, 21, 86, null), row(3, 22, 86, null));
        List<BatchCut.Claim> claims = BatchCut.select(List.of(multi), byStep(rows), 1);
        assertThat(batches(claims.get(0), rows)).containsExactly(11L, 21L);
    }

    @Test
    void maxBatchAboveWhatIsQueuedTakesWhatIsThere() {
        ProcessDefinition s = step(1, List.of(85L), null);
        List<QueueRow> rows = List.of(row(1, 11, 85, null), row(1, 22, 85, null));
        assertThat(batches(BatchCut.select(List.of(s), byStep(rows), 5).get(0), rows)).containsExactly(11L, 22L);
        assertThat(batches(BatchCut.select(List.of(s), byStep(rows), 1).get(0), rows)).containsExactly(11L);
    }

    @Test
    void maxBatchMayOnlyBeNullWhenEveryEnqueuedStepCuts() {
        assertCode(() -> BatchCut.validate(List.of(step(1, List.of(85L), null)), Map.of(), null), 101, "max_batch");
        ProcessDefinition cut = step(2, List.of(85L), "EOD");
        BatchCut.validate(List.of(cut), byStep(List.of(row(2, 11, 85, "EOD@x"))), null);
    }

    @Test
    void placeholdersOfStepsWithoutEnqueuerStayNew() {
        ProcessDefinition s = step(1, List.of(), null);
        List<QueueRow> rows = List.of(row(1, 0, 0, null));
        BatchCut.Claim claim = BatchCut.select(List.of(s), byStep(rows), 1).get(0);
        assertThat(claim.access()).isFalse();
    }

    @Test
    void markingsMeaningNothingAreNull() {
        assertThat(io.batchyard.schemas.BatchMarking.normalise("null,")).isNull();
        assertThat(io.batchyard.schemas.BatchMarking.normalise("null")).isNull();
        assertThat(io.batchyard.schemas.BatchMarking.normalise(" ")).isNull();
        assertThat(io.batchyard.schemas.BatchMarking.normalise("2014-12-16,EOD@2014-12-16")).isEqualTo("2014-12-16,EOD@2014-12-16");
    }

    private QueueRow row(long step, long batch, long source, String marking) {
        return new QueueRow(++queueId, batch, null, null, source == 0 ? null : source, null, null, 0, marking, step);
    }

    private static ProcessDefinition step(long id, List<Long> enqueuers, String pattern) {
        return new ProcessDefinition(id, 1L, "s" + id, 12, true, enqueuers, pattern, List.of(), false, 0, List.of());
    }

    private static Map<Long, List<QueueRow>> byStep(List<QueueRow> rows) {
        return rows.stream().collect(Collectors.groupingBy(QueueRow::processId));
    }

    private static List<Long> batches(BatchCut.Claim claim, List<QueueRow> rows) {
        List<Long> out = new ArrayList<>();
        for (QueueRow r : rows) {
            if (claim.queueIds().contains(r.queueId())) {
                out.add(r.sourceBatchId());
            }
        }
        return out;
    }

    private static void assertCode(Runnable call, int code, String detail) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).contains(detail);
        });
    }
}
