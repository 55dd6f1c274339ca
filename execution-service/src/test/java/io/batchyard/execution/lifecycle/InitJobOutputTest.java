package io.batchyard.execution.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InitJobOutputTest {

    /**
     * The worked example InitJob(123, 1): step 124 takes batch 11 and step 125, cut at EOD, batches 11, 22 and 33
     * (all enqueued by job 85), with these rows made concrete.
     */
    @Test
    void theSeedExampleGivesExactlyTheSeedsOutputs() {
        List<InitJobOutput.ClaimedRow> rows = List.of(
                new InitJobOutput.ClaimedRow(null, 124, 11, 2, "2014-12-16", null, 501L, "/in/a.csv", "11"),
                new InitJobOutput.ClaimedRow(null, 125, 11, 2, "2014-12-16", null, 501L, "/in/a.csv", "11"),
                new InitJobOutput.ClaimedRow(null, 125, 22, 2, "2014-12-16", null, 502L, null, null),
                new InitJobOutput.ClaimedRow(null, 125, 33, 2, "EOD@2014-12-16", null, 503L, "/in/c1.csv,/in/c2.csv", "33,33"));
        Map<String, String> out = InitJobOutput.of(7, 44, null, rows);
        assertThat(out).containsEntry("instance-exec-id", "7")
                .containsEntry("target-batch-id", "44")
                .containsEntry("last-recoverable-sp-id", "")
                .containsEntry("min-batch-id-map.124", "11").containsEntry("max-batch-id-map.124", "11")
                .containsEntry("min-batch-id-map.125", "11").containsEntry("max-batch-id-map.125", "33")
                .containsEntry("min-batch-marking-map.125", "2014-12-16")
                .containsEntry("max-batch-marking-map.125", "2014-12-16")
                .containsEntry("target-batch-marking", "2014-12-16,EOD@2014-12-16")
                .containsEntry("min-source-instance-exec-id-map.125", "501")
                .containsEntry("max-source-instance-exec-id-map.125", "503")
                .containsEntry("file-list-map.FileList.125", "/in/a.csv,/in/c1.csv,/in/c2.csv")
                .containsEntry("batch-list-map.FileBatchList.125", "11,33,33");
    }

    @Test
    void placeholdersAndMissingMarkingsGiveEmptyValuesNotNull() {
        Map<String, String> out = InitJobOutput.of(1, 2, 31L, List.of(new InitJobOutput.ClaimedRow(null, 30, 0, 2, null, null, null, null, null)));
        assertThat(out).containsEntry("target-batch-marking", "")
                .containsEntry("min-batch-marking-map.30", "")
                .containsEntry("last-recoverable-sp-id", "31")
                .doesNotContainKey("min-source-instance-exec-id-map.30");
        assertThat(out.values()).doesNotContain("null");
    }

    @Test
    void businessDatesStripThroughTheLastAt() {
        assertThat(InitJobOutput.businessDates("A@B@2020-01-02, 2020-01-01")).containsExactly("2020-01-02", "2020-01-01");
    }
}
