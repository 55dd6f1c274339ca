package io.batchyard.dashboard.panels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The triggers panel's entry for one parent, from execution-service's settings, /why and trigger runs. */
class TriggerPanelTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aParentsEntryCarriesItsPolicyPauseWaitingBucketsAndRuns() throws Exception {
        JsonNode settings = JSON.readTree("""
                {"processId": 12, "policy": "all", "inputs": [], "grain": "day", "zone": "Europe/Berlin",
                 "coalesce": true, "paused": true}""");
        JsonNode why = JSON.readTree("""
                {"wouldRun": false, "reasons": [{"code": "TRIGGER_PAUSED", "message": "paused"}],
                 "waiting": [{"bucket": "20260329", "policy": "all", "arrived": 45, "expected": 47,
                   "missing": [{"processId": 4, "buckets": ["2026032922", "2026032923"]}], "timeoutAt": null}]}""");
        JsonNode runs = JSON.readTree("""
                {"items": [{"id": 7, "bucket": "20260328", "state": "STARTED", "batches": [
                   {"queueId": 1, "sourceProcessId": 3, "sourceBatchId": 101, "inputBucket": "2026032800"}]}],
                 "total": 1}""");

        PanelService.Trigger t = PanelService.trigger(12, settings, why, runs);

        assertThat(t.processId()).isEqualTo(12);
        assertThat(t.policy()).isEqualTo("all");
        assertThat(t.paused()).isTrue();
        assertThat(t.waiting()).isEqualTo(why.get("waiting"));
        assertThat(t.runs()).isEqualTo(runs.get("items"));
    }

    @Test
    void aParentWhyDoesNotExplainStillShowsItsRunsAndWaitsForNothing() throws Exception {
        JsonNode settings = JSON.readTree("{\"processId\": 5, \"policy\": \"each\", \"paused\": false}");
        PanelService.Trigger t = PanelService.trigger(5, settings, null, JSON.readTree("{\"items\": [], \"total\": 0}"));
        assertThat(t.paused()).isFalse();
        assertThat(t.waiting().isArray()).isTrue();
        assertThat(t.waiting()).isEmpty();
        assertThat(t.runs()).isEmpty();
    }
}
