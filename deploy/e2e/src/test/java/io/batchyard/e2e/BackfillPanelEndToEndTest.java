package io.batchyard.e2e;

import static io.batchyard.e2e.BucketTriggers.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.e2e.BucketTriggers.Job;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's backfills panel in a real browser (Debian's Chromium, headless, driven by Playwright as
 * {@link DashboardEndToEndTest}), over the shared stack: a producer's consumer A and A's consumer B ran a day; A is
 * restated for it, and the backfill re-runs A, then B, on the packaged runner to its end; a second one is paused. The
 * panel shows the paused one among the live and the ended one with a bar per level whose segments (their counts and
 * widths) and words are the counts {@code GET /backfills/{id}} answers.
 */
class BackfillPanelEndToEndTest extends PanelBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(180);
    private static final String DAY = "20260901";
    /** A level's counts in the order the page names them after "succeeded". */
    private static final List<String> OTHERS = List.of("failed", "skipped", "running", "pending");

    @Test
    void aBackfillShowsABarPerLevelWithTheCountsOfItsProgress() throws Exception {
        BucketTriggers t = new BucketTriggers(stack, Stack.sharedScriptDir(), "backfill-panel");
        Job p = t.producer("day", "UTC");
        Job a = t.consumer(List.of(p.parent()), BucketTriggers.daily("each", p));
        Job b = t.consumer(List.of(a.parent()), BucketTriggers.daily("each", a));
        t.batch(p, DAY);
        for (Job job : List.of(a, b)) {
            await().atMost(WAIT).pollInterval(Duration.ofMillis(500))
                    .until(() -> t.completeBuckets(job.parent()).containsKey(DAY));
        }
        String ended = start(t, a);
        JsonPath done = await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).until(
                () -> ok(t.execution().get("/backfills/" + ended)).jsonPath(),
                j -> List.of("SUCCEEDED", "FAILED").contains(j.getString("backfill.state")));
        assertThat(done.getString("backfill.state")).as(done.prettify()).isEqualTo("SUCCEEDED");
        List<Map<String, Object>> levels = done.getList("progress.levels");
        assertThat(levels).hasSize(2);
        String paused = start(t, a);
        // a driver step that moves it at the same time beats the pause (409): asked again
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> t.execution().post("/backfills/" + paused + "/pause").statusCode() == 200);

        try {
            String out = runScript("dashboard-backfills.js", Map.of("ENDED", ended,
                    "ENDED_LEVELS", new ObjectMapper().writeValueAsString(expected(levels)), "PAUSED", paused));
            assertThat(out).contains("\"backfillsShownMs\"");
            assertThat(SCREENSHOTS.resolve("backfills.png")).exists();
        } finally {
            // the shared stack's driver need not carry it on
            t.execution().post("/backfills/" + paused + "/cancel");
        }
    }

    /** A backfill of A's restated day (A, then B), started from a fresh plan; its id. */
    private static String start(BucketTriggers t, Job root) {
        String planId = ok(t.execution().body(Map.of("roots", List.of(Map.of("processId", root.parent())),
                "fromBucket", DAY, "toBucket", DAY, "mode", "all", "cascade", true))
                .post("/backfills/preview"), 201).jsonPath().getString("planId");
        return ok(t.execution().body(Map.of("planId", planId)).post("/backfills"), 202).jsonPath()
                .getString("backfill.backfillId");
    }

    /** What the page owes each level of {@code GET /backfills/{id}}'s progress: its counts, and them in words. */
    private static List<Map<String, Object>> expected(List<Map<String, Object>> levels) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> level : levels) {
            StringBuilder text = new StringBuilder("level " + level.get("level") + ": " + level.get("succeeded") + "/"
                    + level.get("entries") + " succeeded");
            OTHERS.stream().filter(k -> ((Number) level.get(k)).intValue() > 0)
                    .forEach(k -> text.append(", ").append(level.get(k)).append(' ').append(k));
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("level", level.get("level"));
            e.put("text", text.toString());
            e.put("counts", level);
            out.add(e);
        }
        return out;
    }
}
