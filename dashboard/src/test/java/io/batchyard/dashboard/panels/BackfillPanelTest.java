package io.batchyard.dashboard.panels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The backfills panel from execution-service's pages of backfills, one per state it asks for. */
class BackfillPanelTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void liveBackfillsOfEveryStateAreMergedNewestFirstWithTheirLevelsAndEveryStateIsCounted() {
        JsonNode queued = page(7, backfill("q1", "QUEUED", "2026-11-29T10:00:05Z"));
        JsonNode running = page(1, backfill("r1", "RUNNING", "2026-11-29T10:00:03.5+01:00"));
        JsonNode paused = page(0);
        JsonNode failed = page(2, backfill("f1", "FAILED", "2026-11-29T10:00:04.123456Z"),
                backfill("f2", "FAILED", "2026-11-29T08:00:00Z"));
        JsonNode succeeded = page(12, backfill("s1", "SUCCEEDED", "2026-11-29T07:00:00Z"));
        JsonNode cancelled = page(1, backfill("c1", "CANCELLED", "2026-11-29T07:30:00Z"));

        PanelService.Backfills b = PanelService.backfills(List.of(queued, running, paused, failed),
                List.of(succeeded, cancelled));

        // 10:00:03.5+01:00 is 09:00:03.5 UTC: older than f1, newer than f2
        assertThat(ids(b.live())).containsExactly("q1", "f1", "r1", "f2");
        assertThat(ids(b.ended())).containsExactly("c1", "s1");
        assertThat(b.totals()).containsExactly(Map.entry("QUEUED", 7L), Map.entry("RUNNING", 1L),
                Map.entry("PAUSED", 0L), Map.entry("FAILED", 2L), Map.entry("SUCCEEDED", 12L),
                Map.entry("CANCELLED", 1L));
        // each backfill as the service answered it: its counts per level reach the page unchanged
        assertThat(b.live().get(0).path("progress").path("levels")).isEqualTo(queued.path("items").get(0)
                .path("progress").path("levels"));
    }

    @Test
    void onlyTheNewestAreShownWhileTheTotalsCountThemAll() {
        List<JsonNode> many = IntStream.range(0, 20).mapToObj(i -> backfill("q" + i, "QUEUED",
                "2026-11-29T10:%02d:00Z".formatted(i))).toList();
        List<JsonNode> more = IntStream.range(0, 20).mapToObj(i -> backfill("r" + i, "RUNNING",
                "2026-11-29T11:%02d:00Z".formatted(i))).toList();
        List<JsonNode> ended = IntStream.range(0, 5).mapToObj(i -> backfill("s" + i, "SUCCEEDED",
                "2026-11-28T10:%02d:00Z".formatted(i))).toList();
        List<JsonNode> cancelled = IntStream.range(0, 5).mapToObj(i -> backfill("c" + i, "CANCELLED",
                "2026-11-28T11:%02d:00Z".formatted(i))).toList();

        PanelService.Backfills b = PanelService.backfills(List.of(page(40, many.toArray(JsonNode[]::new)),
                page(25, more.toArray(JsonNode[]::new)), page(0), page(0)), List.of(page(5, ended.toArray(
                JsonNode[]::new)), page(9, cancelled.toArray(JsonNode[]::new))));

        assertThat(b.live()).hasSize(PanelService.BACKFILLS_SHOWN);
        assertThat(ids(b.live())).startsWith("r19", "r18").endsWith("r0").noneMatch(id -> id.startsWith("q"));
        assertThat(ids(b.ended())).containsExactly("c4", "c3", "c2", "c1", "c0");
        assertThat(b.totals().get("QUEUED")).isEqualTo(40);
        assertThat(b.totals().get("CANCELLED")).isEqualTo(9);
    }

    /** A backfill of two levels as {@code GET /backfills} lists it. */
    private static JsonNode backfill(String id, String state, String createdAt) {
        try {
            return JSON.readTree("""
                    {"backfill": {"backfillId": "%s", "planId": "p-%s", "state": "%s", "concurrency": 2,
                      "onFailure": "stop", "createdBy": "ada", "createdAt": "%s", "updatedAt": "%s", "version": 1},
                     "rootProcessIds": [41],
                     "progress": {"entries": 3, "pending": 1, "running": 1, "succeeded": 1, "failed": 0, "skipped": 0,
                      "levels": [{"level": 0, "entries": 1, "pending": 0, "running": 0, "succeeded": 1, "failed": 0,
                                  "skipped": 0},
                                 {"level": 1, "entries": 2, "pending": 1, "running": 1, "succeeded": 0, "failed": 0,
                                  "skipped": 0}]}}""".formatted(id, id, state, createdAt, createdAt));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode page(long total, JsonNode... items) {
        var page = JSON.createObjectNode();
        page.putArray("items").addAll(List.of(items));
        return page.put("total", total).put("limit", 20).put("offset", 0);
    }

    private static List<String> ids(List<JsonNode> items) {
        List<String> ids = new ArrayList<>();
        items.forEach(i -> ids.add(i.path("backfill").path("backfillId").asText()));
        return ids;
    }
}
