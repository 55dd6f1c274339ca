package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.e2e.BucketTriggers.Job;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's triggers panel in a real browser (Debian's Chromium, headless, driven by Playwright as
 * {@link DashboardEndToEndTest}), over the shared stack: a consumer waiting for its Berlin day shows the bucket, the
 * inputs arrived of those expected and the producer's missing hours; a paused consumer shows as paused with its latest
 * trigger run and the batch that run consumed. Screenshots go to target/dashboard-screenshots.
 */
class TriggerPanelEndToEndTest extends PanelBrowserTest {

    @Test
    void aWaitingBucketAndAPausedConsumerWithItsRunShowInTheBrowser() throws Exception {
        BucketTriggers t = new BucketTriggers(stack, Stack.sharedScriptDir(), "trigger-panel");
        // a daily Berlin consumer of an hourly UTC producer, two hours in: it waits for the other 22
        Job hourly = t.producer("hour", "UTC");
        Job waiting = t.consumer(List.of(hourly.parent()), Map.of("policy", "all", "inputs",
                List.of(hourly.parent()), "grain", "day", "zone", "Europe/Berlin"));
        List<String> hours = BucketTriggerEndToEndTest.utcHoursOfBerlinDay("20260610");
        t.batch(hourly, hours.get(0));
        t.batch(hourly, hours.get(1));
        // a consumer of each daily batch that ran once, then was paused
        Job daily = t.producer("day", "UTC");
        Job paused = t.consumer(List.of(daily.parent()), Map.of("policy", "each", "inputs", List.of(daily.parent()),
                "grain", "day", "zone", "UTC"));
        long batch = t.batch(daily, "20260711");
        Map<String, Object> run = t.awaitStarted(paused.parent(), "20260711");
        BucketTriggers.ok(t.execution().post("/processes/" + paused.parent() + "/trigger/pause"));
        // the page asks for the triggers of the parents of the queues it shows: both steps' queues are in its view
        await().atMost(BucketTriggers.WAIT).pollInterval(Duration.ofMillis(200)).until(() -> given()
                .baseUri(dashboard.url()).get("/api/snapshot").then().statusCode(200).extract().jsonPath()
                .getList("queues.consumerProcessId", Long.class).containsAll(List.of(waiting.step(), paused.step())));

        String out = runScript("dashboard-triggers.js", Map.of(
                "APPLICATION", String.valueOf(t.app),
                "WAITING", String.valueOf(waiting.parent()),
                "BUCKET", "20260610",
                "ARRIVED", "2",
                "EXPECTED", "24",
                "PRODUCER", String.valueOf(hourly.parent()),
                "MISSING", hours.get(23),
                "PAUSED", String.valueOf(paused.parent()),
                "TRIGGER_RUN", String.valueOf(run.get("id")),
                "BATCH", String.valueOf(batch)));
        assertThat(out).contains("\"triggersShownMs\"");
        assertThat(SCREENSHOTS.resolve("triggers.png")).exists();
    }
}
