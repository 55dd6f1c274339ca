package io.batchyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code why}'s waiting buckets, {@code trigger get|set|runs}, {@code pause} and {@code resume [--skip] [--preview]}
 * against a fake execution-service answering as its trigger API does: the request each command sends, the table for
 * people, the service's answer as it came for scripts, a refusal's exit status.
 */
class TriggerCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String SETTINGS = "{\"processId\":12,\"policy\":\"n-of\",\"inputs\":[3,4],\"n\":1,"
            + "\"timeout\":null,\"grain\":\"day\",\"zone\":\"Europe/Berlin\",\"coalesce\":false,\"paused\":true}";

    /** A run that consumed two batches of process 3 and one of 4, and a skipped one still missing hours of 4. */
    private static final String RUN = "{\"id\":7,\"bucket\":\"20260329\",\"state\":\"STARTED\",\"reason\":\"n-of\","
            + "\"batches\":[{\"queueId\":70,\"sourceProcessId\":3,\"sourceBatchId\":101,\"inputBucket\":\"2026032822\"},"
            + "{\"queueId\":71,\"sourceProcessId\":4,\"sourceBatchId\":9,\"inputBucket\":\"20260329\"},"
            + "{\"queueId\":72,\"sourceProcessId\":3,\"sourceBatchId\":102,\"inputBucket\":\"2026032823\"}],"
            + "\"missing\":[],\"late\":1,\"createdAt\":\"2026-03-30T00:00:01Z\",\"startedAt\":\"2026-03-30T00:00:02Z\","
            + "\"instanceExecId\":41}";
    private static final String SKIPPED = "{\"id\":6,\"bucket\":\"20260328\",\"state\":\"PENDING\","
            + "\"reason\":\"all-with-timeout\",\"batches\":[{\"queueId\":60,\"sourceProcessId\":3,\"sourceBatchId\":99,"
            + "\"inputBucket\":\"2026032800\"}],\"missing\":[{\"processId\":4,\"buckets\":[\"2026032801\","
            + "\"2026032802\"]}],\"late\":0,\"createdAt\":\"2026-03-29T02:00:00Z\",\"startedAt\":null,"
            + "\"instanceExecId\":null}";
    private static final String RUNS = "{\"items\":[" + RUN + "," + SKIPPED + "],\"total\":5,\"limit\":2,\"offset\":0}";
    private static final String PREVIEW = "{\"processId\":12,\"mode\":\"skip\",\"start\":[" + RUN + "],\"skip\":["
            + SKIPPED + "]}";
    private static final String WHY = "{\"processId\":12,\"wouldRun\":false,\"nextBuckets\":[],\"reasons\":["
            + "{\"code\":\"WAITING_FOR_BUCKET\",\"message\":\"bucket 20260329 waits for 2 batches of process 4\"}],"
            + "\"waiting\":[{\"bucket\":\"20260329\",\"policy\":\"all\",\"arrived\":45,\"expected\":47,"
            + "\"missing\":[{\"processId\":4,\"buckets\":[\"2026032922\",\"2026032923\"]}],\"timeoutAt\":null}]}";
    private static final String NOT_PAUSED = "{\"type\":\"about:blank\",\"status\":409,\"code\":437,"
            + "\"title\":\"The trigger is not paused\",\"detail\":\"process 12 is not paused\"}";

    private FakeService execution;

    @BeforeEach
    void start(@TempDir Path home) {
        execution = new FakeService().answer("/processes/12/trigger", 200, SETTINGS)
                .answer("/processes/12/trigger/pause", 200, SETTINGS)
                .answer("/processes/12/trigger/runs", 200, RUNS)
                .answer("/processes/12/trigger/resume-preview", 200, PREVIEW)
                .answer("/processes/12/trigger/resume", 200, PREVIEW)
                .answer("/processes/13/trigger/resume", 409, NOT_PAUSED)
                .answer("/why/12", 200, WHY);
        Connection.environment = Map.of("BATCHYARD_TOKEN", "t", "BATCHYARD_EXECUTION_URL", execution.url(),
                "BATCHYARD_RETRY_MAX_ATTEMPTS", "1", "XDG_CONFIG_HOME", home.toString())::get;
    }

    @AfterEach
    void stop() {
        execution.close();
        Connection.environment = System::getenv;
    }

    @Test
    void setSendsOnlyTheOptionsGivenUnderTheServicesNames() throws Exception {
        FakeService.Run r = FakeService.run("trigger", "set", "12", "--policy", "n-of", "--inputs", "3,4", "--n", "1",
                "--grain", "day", "--zone", "Europe/Berlin", "--no-coalesce");
        assertThat(r.status()).as(r.err()).isZero();
        FakeService.Request put = execution.requests().get(0);
        assertThat(put.method()).isEqualTo("PUT");
        assertThat(put.uri()).isEqualTo("/processes/12/trigger");
        assertThat(JSON.readTree(put.body())).isEqualTo(JSON.readTree("{\"policy\":\"n-of\",\"inputs\":[3,4],\"n\":1,"
                + "\"grain\":\"day\",\"zone\":\"Europe/Berlin\",\"coalesce\":false}"));
        assertThat(r.out()).isEqualTo("process 12: policy n-of (n 1), PAUSED\ninputs: 3, 4\n"
                + "bucket: grain day, zone Europe/Berlin, coalesce false\n");

        FakeService.Run plain = FakeService.run("trigger", "set", "12", "--policy", "each");
        assertThat(plain.status()).isZero();
        assertThat(JSON.readTree(execution.requests().get(1).body())).isEqualTo(JSON.readTree("{\"policy\":\"each\"}"));
        assertThat(FakeService.run("trigger", "set", "12").status()).as("--policy is required")
                .isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void getPrintsTheSettingsAndJsonIsTheServicesAnswer() throws Exception {
        FakeService.Run r = FakeService.run("trigger", "get", "12");
        assertThat(r.status()).isZero();
        assertThat(r.out()).startsWith("process 12: policy n-of (n 1), PAUSED\n");
        assertThat(execution.requests().get(0).method()).isEqualTo("GET");
        FakeService.Run json = FakeService.run("trigger", "get", "12", "--output", "json");
        assertThat(JSON.readTree(json.out())).isEqualTo(JSON.readTree(SETTINGS));
        FakeService.Run yaml = FakeService.run("trigger", "get", "12", "--output", "yaml");
        assertThat(new YAMLMapper().readTree(yaml.out())).isEqualTo(JSON.readTree(SETTINGS));
    }

    @Test
    void runsListsEachRunsBatchesBySourceAndWhatWasMissing() throws Exception {
        FakeService.Run r = FakeService.run("trigger", "runs", "12", "--limit", "2");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(execution.requests().get(0).uri()).isEqualTo("/processes/12/trigger/runs?limit=2&offset=0");
        assertThat(r.out().lines().toList()).containsExactly(
                "TRIGGER_RUN  BUCKET    STATE    REASON            BATCHES            MISSING                    LATE"
                        + "  CREATED               STARTED               RUN",
                "7            20260329  STARTED  n-of              3: 101, 102; 4: 9  -                          1   "
                        + "  2026-03-30T00:00:01Z  2026-03-30T00:00:02Z  41",
                "6            20260328  PENDING  all-with-timeout  3: 99              4: 2026032801, 2026032802  0   "
                        + "  2026-03-29T02:00:00Z  -                     -",
                "2 of 5 (--limit, --offset for more)");
        FakeService.Run json = FakeService.run("trigger", "runs", "12", "--output", "json");
        assertThat(JSON.readTree(json.out())).isEqualTo(JSON.readTree(RUNS));
    }

    @Test
    void whyShowsTheBucketsWaitedForAndWhatIsMissing() throws Exception {
        FakeService.Run r = FakeService.run("why", "12");
        assertThat(r.status()).isZero();
        assertThat(r.out().lines().toList()).containsExactly("process 12: would not run now",
                "  WAITING_FOR_BUCKET: bucket 20260329 waits for 2 batches of process 4",
                "waiting for:",
                "BUCKET    POLICY  ARRIVED  MISSING                    TIMEOUT_AT",
                "20260329  all     45/47    4: 2026032922, 2026032923  -");
        assertThat(JSON.readTree(FakeService.run("why", "12", "--output", "json").out()))
                .isEqualTo(JSON.readTree(WHY));
    }

    @Test
    void pausePostsAndResumePreviewsOrResumesInTheModeAsked() throws Exception {
        FakeService.Run paused = FakeService.run("pause", "12");
        assertThat(paused.out()).isEqualTo("process 12 paused; due buckets wait for resume\n");
        assertThat(execution.requests().get(0).method()).isEqualTo("POST");
        assertThat(execution.requests().get(0).uri()).isEqualTo("/processes/12/trigger/pause");

        FakeService.Run preview = FakeService.run("resume", "12", "--skip", "--preview");
        assertThat(preview.status()).isZero();
        assertThat(execution.requests().get(1).method()).isEqualTo("GET");
        assertThat(execution.requests().get(1).uri()).isEqualTo("/processes/12/trigger/resume-preview?mode=skip");
        assertThat(preview.out()).startsWith("resuming process 12 (skip) would start 1, skip 1\nwould start:\n")
                .contains("\nwould skip (their batches stay queued):\n");

        FakeService.Run resumed = FakeService.run("resume", "12");
        assertThat(execution.requests().get(2).method()).isEqualTo("POST");
        assertThat(execution.requests().get(2).uri()).isEqualTo("/processes/12/trigger/resume");
        assertThat(JSON.readTree(execution.requests().get(2).body())).isEqualTo(JSON.readTree("{\"mode\":\"catch-up\"}"));
        assertThat(resumed.out()).startsWith("resumed process 12 (skip): started 1, skipped 1\nstarted:\n");

        FakeService.Run json = FakeService.run("resume", "12", "--preview", "--output", "json");
        JsonNode answer = JSON.readTree(json.out());
        assertThat(answer).isEqualTo(JSON.readTree(PREVIEW));
    }

    @Test
    void resumingATriggerThatIsNotPausedIsARefusalWithItsCode() {
        FakeService.Run r = FakeService.run("resume", "13");
        assertThat(r.status()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).contains("resume: Batchyard refused:").contains("437");
    }
}
