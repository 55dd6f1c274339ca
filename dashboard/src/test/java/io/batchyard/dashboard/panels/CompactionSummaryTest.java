package io.batchyard.dashboard.panels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The compaction panel's summary of queue-service's partition and merge-job pages. */
class CompactionSummaryTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void partitionsAreCountedPerTableByStateAndDeadJobsNameTheirPartitionAndError() throws Exception {
        JsonNode partitions = JSON.readTree("""
                {"items": [
                  {"partitionId": 1, "schemaName": "logs", "tableName": "clicks", "partitionDate": "2026-11-24", "state": "SWITCHED"},
                  {"partitionId": 2, "schemaName": "logs", "tableName": "clicks", "partitionDate": "2026-11-25", "state": "CLOSED"},
                  {"partitionId": 3, "schemaName": "logs", "tableName": "clicks", "partitionDate": "2026-11-26", "state": "LIVE"},
                  {"partitionId": 4, "schemaName": "logs", "tableName": "views", "partitionDate": "2026-11-26", "state": "NEW"}],
                 "total": 4, "limit": 500, "offset": 0}""");
        JsonNode pending = JSON.readTree("""
                {"items": [{"jobId": 10, "partitionId": 3}, {"jobId": 11, "partitionId": 4}], "total": 2}""");
        JsonNode dead = JSON.readTree("""
                {"items": [{"jobId": 12, "partitionId": 2, "attempts": 5, "lastError": "MalformedRecord: not JSON"}],
                 "total": 1}""");

        PanelService.Compaction c = PanelService.compaction(partitions, pending, dead);

        assertThat(c.tables()).containsExactly(
                new PanelService.TableCompaction("logs.clicks", 1, 1, 1, 1, 1),
                new PanelService.TableCompaction("logs.views", 1, 0, 0, 1, 0));
        assertThat(c.partitionsTotal()).isEqualTo(4);
        assertThat(c.pendingTotal()).isEqualTo(2);
        assertThat(c.deadTotal()).isEqualTo(1);
        assertThat(c.dead()).containsExactly(
                new PanelService.DeadJob(12, 2, "logs.clicks", "2026-11-25", 5, "MalformedRecord: not JSON"));
    }
}
