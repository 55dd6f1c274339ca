package io.batchyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code batchyard deadlines list|waive} against a fake execution-service answering as the real one does. */
class DeadlineCommandsTest {

    /** GET /deadlines?state=AT_RISK as execution-service answers it. */
    private static final String AT_RISK = "{\"items\":[{\"deadlineId\":9,\"processId\":42,\"bucket\":\"20260310\","
            + "\"kind\":\"FINISH\",\"bucketEnd\":\"2026-03-10T23:00:00Z\",\"dueAt\":\"2026-03-11T05:00:00Z\","
            + "\"state\":\"AT_RISK\",\"eta\":\"2026-03-11T05:30:00Z\",\"blockerProcessId\":17,"
            + "\"blockerReason\":\"process 17: BUCKET_NOT_RECORDED (bucket 20260310 was never recorded)\","
            + "\"waiveReason\":null,\"runStartedAt\":null,\"decidedAt\":null,\"previous\":null}],"
            + "\"total\":1,\"limit\":20,\"offset\":0}";
    private static final String WAIVED = "{\"deadlineId\":9,\"processId\":42,\"bucket\":\"20260310\","
            + "\"kind\":\"FINISH\",\"state\":\"WAIVED\",\"waiveReason\":\"source outage\"}";
    private static final String NOT_OPEN = "{\"type\":\"about:blank\",\"status\":409,\"code\":441,"
            + "\"title\":\"The deadline is no longer open\",\"detail\":\"deadline 8 is MET\"}";

    private FakeService execution;

    @BeforeEach
    void start(@TempDir Path home) {
        execution = new FakeService().answer("/deadlines", 200, AT_RISK).answer("/deadlines/9/waive", 200, WAIVED)
                .answer("/deadlines/8/waive", 409, NOT_OPEN).asExecution(home);
    }

    @AfterEach
    void stop() {
        execution.close();
        FakeService.restoreEnvironment();
    }

    @Test
    void listShowsWhatEachDeadlineWaitsForAndJsonIsTheServicesAnswer() throws Exception {
        FakeService.Run table = FakeService.run("deadlines", "list", "--state", "AT_RISK");
        assertThat(table.status()).isZero();
        assertThat(table.out().lines().findFirst().orElseThrow()).startsWith("DEADLINE  PROCESS  BUCKET ");
        assertThat(table.out()).contains("20260310").contains("AT_RISK")
                .contains("process 17: BUCKET_NOT_RECORDED").contains("eta 2026-03-11T05:30:00Z");
        FakeService.Run json = FakeService.run("deadlines", "list", "--state", "AT_RISK", "--output", "json");
        assertThat(new ObjectMapper().readTree(json.out())).isEqualTo(new ObjectMapper().readTree(AT_RISK));
    }

    @Test
    void waiveSaysWhatItDidAndARefusalExitsWithTheServicesCode() {
        FakeService.Run waived = FakeService.run("deadlines", "waive", "9", "--reason", "source outage");
        assertThat(waived.status()).isZero();
        assertThat(waived.out()).contains("deadline 9 of process 42 bucket 20260310: WAIVED");
        FakeService.Run refused = FakeService.run("deadlines", "waive", "8", "--reason", "again");
        assertThat(refused.status()).isNotZero();
        assertThat(refused.err()).contains("441");
        assertThat(FakeService.run("deadlines", "waive", "9").status()).as("--reason is required").isNotZero();
    }
}
