package io.batchyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code backfill preview|run|status|pause|resume|cancel} against a fake execution-service answering as its backfill
 * API does: the request each command sends, the text for people, the answer as it came for scripts, a refusal's exit.
 */
class BackfillCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PLAN_ID = "6f1c2a52-0d7e-4d8e-9a55-2a1f3c4b5d6e";
    private static final String ID = "0b9e8f7a-6c5d-4e3f-8a1b-2c3d4e5f6a7b";

    /** A diamond's plan: A's bucket, B and C that consumed its batch, D that consumed both. */
    private static final String PLAN = "{\"planId\":\"" + PLAN_ID + "\",\"fingerprint\":\"ab\",\"levels\":3,"
            + "\"estimatedMs\":1200,\"entriesWithoutEstimate\":1,\"entries\":["
            + entry(1, 0, 1, "null", "[]", "[{\"processId\":1,\"runId\":11,\"batchId\":null}]", "600")
            + "," + entry(2, 1, 2, "100", "[100]", "[{\"processId\":1},{\"processId\":2}]", "600")
            + "," + entry(3, 2, 4, "200", "[200,300]", "[{\"processId\":1},{\"processId\":2},{\"processId\":4}]",
                    "null") + "]}";
    private static final String STARTED = "{\"backfill\":{\"backfillId\":\"" + ID + "\",\"planId\":\"" + PLAN_ID
            + "\",\"state\":\"QUEUED\",\"concurrency\":2,\"onFailure\":\"stop\",\"version\":0},\"plan\":" + PLAN + "}";
    private static final String PAUSED = STARTED.replace("\"QUEUED\"", "\"PAUSED\"");
    /** The same backfill running: level 0 done, one of level 1 failed, level 2 skipped because of it. */
    private static final String RUNNING = STARTED.replace("\"QUEUED\"", "\"FAILED\"").replaceFirst("}$",
            ",\"progress\":{\"entries\":3,\"succeeded\":1,\"failed\":1,\"skipped\":1,\"levels\":["
            + "{\"level\":0,\"entries\":1,\"succeeded\":1,\"failed\":0,\"skipped\":0,\"running\":0},"
            + "{\"level\":1,\"entries\":1,\"succeeded\":0,\"failed\":1,\"skipped\":0,\"running\":0},"
            + "{\"level\":2,\"entries\":1,\"succeeded\":0,\"failed\":0,\"skipped\":1,\"running\":0}],"
            + "\"entryRuns\":[{\"entryNo\":2,\"state\":\"FAILED\",\"message\":\"run 7 failed: exit 3\"},"
            + "{\"entryNo\":3,\"state\":\"SKIPPED\",\"message\":\"an entry it consumes from failed\"}]}}");
    private static final String STALE = "{\"type\":\"about:blank\",\"status\":409,\"code\":462,"
            + "\"title\":\"The backfill plan is stale\",\"detail\":\"1 entries more, 0 fewer\"}";

    private static String entry(int no, int level, long process, String inputsBatch, String inputs, String reason,
                                String estimate) {
        return "{\"entryNo\":" + no + ",\"level\":" + level + ",\"processId\":" + process + ",\"bucket\":\"20260301\","
                + "\"replacedRunId\":" + (10 + no) + ",\"inputBatchIds\":" + inputs + ",\"status\":\"COMPLETED\","
                + "\"root\":" + (level == 0) + ",\"reason\":" + reason + ",\"estimatedMs\":" + estimate + "}";
    }

    private FakeService execution;

    @BeforeEach
    void start(@TempDir Path home) {
        execution = new FakeService().answer("/backfills/preview", 201, PLAN)
                .answer("/backfills", 202, STARTED)
                .answer("/backfills/" + ID, 200, STARTED)
                .answer("/backfills/" + ID + "/pause", 200, PAUSED)
                .answer("/backfills/" + ID + "/resume", 200, STARTED)
                .answer("/backfills/" + ID + "/cancel", 200, STARTED.replace("\"QUEUED\"", "\"CANCELLED\""))
                .answer("/backfills/stale", 409, STALE)
                .answer("/backfills/running", 200, RUNNING);
        execution.asExecution(home);
    }

    @AfterEach
    void stop() {
        execution.close();
        Connection.environment = System::getenv;
    }

    @Test
    void previewSendsTheRootsAndRangeAndPrintsThePlanInOrder() throws Exception {
        FakeService.Run r = FakeService.run("backfill", "preview", "--root", "1,5", "--from", "20260301", "--to",
                "20260303", "--mode", "failed", "--no-cascade");
        assertThat(r.status()).as(r.err()).isZero();
        FakeService.Request post = execution.requests().get(0);
        assertThat(post.method()).isEqualTo("POST");
        assertThat(post.uri()).isEqualTo("/backfills/preview");
        assertThat(JSON.readTree(post.body())).isEqualTo(JSON.readTree("{\"roots\":[{\"processId\":1},"
                + "{\"processId\":5}],\"fromBucket\":\"20260301\",\"toBucket\":\"20260303\",\"mode\":\"failed\","
                + "\"cascade\":false}"));
        assertThat(r.out().lines().toList()).containsExactly(
                "plan " + PLAN_ID + ": 3 entries in 3 levels, estimated 1200 ms (1 without estimate)",
                "ENTRY  LEVEL  PROCESS  BUCKET    REPLACES_RUN  STATUS     INPUTS   REASON     ESTIMATE_MS",
                "1      0      1        20260301  11            COMPLETED  -        1          600",
                "2      1      2        20260301  12            COMPLETED  100      1 > 2      600",
                "3      2      4        20260301  13            COMPLETED  200,300  1 > 2 > 4  -");
        FakeService.Run json = FakeService.run("backfill", "preview", "--root", "1", "--batch", "7", "--output",
                "json");
        assertThat(JSON.readTree(json.out())).isEqualTo(JSON.readTree(PLAN));
        assertThat(JSON.readTree(execution.requests().get(1).body()))
                .isEqualTo(JSON.readTree("{\"roots\":[{\"processId\":1}],\"batchIds\":[7]}"));
        assertThat(FakeService.run("backfill", "preview").status()).as("--root is required")
                .isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void columnsGoWithEachRootAndAPrunedEntryIsMarkedWithWhyAndLeftOutOfTheBars() throws Exception {
        String b = entry(2, 1, 2, "100", "[100]", "[{\"processId\":1},{\"processId\":2}]", "600");
        String pruned = PLAN.replace(b, b.substring(0, b.length() - 1)
                + ",\"pruned\":\"the column lineage of db.a.x does not reach process 2\"}");
        assertThat(pruned).isNotEqualTo(PLAN);
        execution.answer("/backfills/preview", 201, pruned).answer("/backfills/pruned", 200,
                STARTED.replace(PLAN, pruned));
        FakeService.Run r = FakeService.run("backfill", "preview", "--root", "1,5", "--batch", "7", "--column",
                "db.a.x,db.a.y");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(JSON.readTree(execution.requests().get(0).body())).isEqualTo(JSON.readTree("{\"roots\":["
                + "{\"processId\":1,\"columns\":[\"db.a.x\",\"db.a.y\"]},"
                + "{\"processId\":5,\"columns\":[\"db.a.x\",\"db.a.y\"]}],\"batchIds\":[7]}"));
        assertThat(r.out().lines().toList()).containsExactly(
                "plan " + PLAN_ID + ": 3 entries (1 pruned) in 3 levels, estimated 1200 ms (1 without estimate)",
                "ENTRY  LEVEL  PROCESS  BUCKET    REPLACES_RUN  STATUS            INPUTS   REASON     ESTIMATE_MS",
                "1      0      1        20260301  11            COMPLETED         -        1          600",
                "2      1      2        20260301  12            COMPLETED PRUNED  100      1 > 2      600",
                "3      2      4        20260301  13            COMPLETED         200,300  1 > 2 > 4  -",
                "entry 2 pruned: the column lineage of db.a.x does not reach process 2");
        assertThat(FakeService.run("backfill", "status", "pruned").out().lines().toList()).containsExactly(
                "backfill " + ID + ": QUEUED (plan " + PLAN_ID + ", concurrency 2, on failure stop)",
                "level 0 [--------------------] 0/1",
                "level 2 [--------------------] 0/1");
    }

    @Test
    void runStatusAndTheMovesPrintTheStateAndEachLevel() throws Exception {
        FakeService.Run run = FakeService.run("backfill", "run", PLAN_ID, "--recompute", "--concurrency", "3",
                "--on-failure", "continue");
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(JSON.readTree(execution.requests().get(0).body())).isEqualTo(JSON.readTree("{\"planId\":\""
                + PLAN_ID + "\",\"recompute\":true,\"concurrency\":3,\"onFailure\":\"continue\"}"));
        assertThat(run.out().lines().toList()).containsExactly(
                "backfill " + ID + ": QUEUED (plan " + PLAN_ID + ", concurrency 2, on failure stop)",
                "level 0 [--------------------] 0/1",
                "level 1 [--------------------] 0/1",
                "level 2 [--------------------] 0/1");

        assertThat(FakeService.run("backfill", "status", ID).out()).startsWith("backfill " + ID + ": QUEUED");
        assertThat(execution.requests().get(1).method()).isEqualTo("GET");
        assertThat(FakeService.run("backfill", "pause", ID).out()).startsWith("backfill " + ID + ": PAUSED");
        assertThat(execution.requests().get(2).method()).isEqualTo("POST");
        assertThat(execution.requests().get(2).uri()).isEqualTo("/backfills/" + ID + "/pause");
        assertThat(FakeService.run("backfill", "resume", ID).out()).startsWith("backfill " + ID + ": QUEUED");
        assertThat(FakeService.run("backfill", "cancel", ID).out()).startsWith("backfill " + ID + ": CANCELLED");
        assertThat(execution.requests().get(4).uri()).isEqualTo("/backfills/" + ID + "/cancel");
    }

    @Test
    void aStalePlanIsARefusalWithItsCode() {
        FakeService.Run r = FakeService.run("backfill", "status", "stale");
        assertThat(r.status()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).contains("Batchyard refused:").contains("462");
    }

    @Test
    void statusFillsEachLevelsBarAsItsEntriesEndAndNamesWhatFailed() {
        FakeService.Run r = FakeService.run("backfill", "status", "running");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out().lines().toList()).containsExactly(
                "backfill " + ID + ": FAILED (plan " + PLAN_ID + ", concurrency 2, on failure stop)",
                "level 0 [####################] 1/1",
                "level 1 [####################] 1/1, 1 failed",
                "level 2 [####################] 1/1, 1 skipped",
                "entry 2 FAILED: run 7 failed: exit 3",
                "entry 3 SKIPPED: an entry it consumes from failed");
    }
}
