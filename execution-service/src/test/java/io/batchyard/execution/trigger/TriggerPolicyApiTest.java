package io.batchyard.execution.trigger;

import static io.batchyard.execution.ExecutionFixtures.WAIT;
import static io.batchyard.execution.ExecutionFixtures.id;
import static io.batchyard.execution.ExecutionFixtures.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.containsString;

import io.batchyard.execution.ExecutionFixtures;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** The trigger policy of a parent over REST: default, replace, every refusal, and execute permission. */
@ExecutionTest
class TriggerPolicyApiTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aParentHasNoneUntilItIsSetAndTheLastPutWins() {
        long p = id(), s = id();
        register(bootstrap, ProcessTrees.parent(p).workflowType(2).next(s).step(s, st -> st.next(p)));

        given().get(trigger(p)).then().statusCode(200).body("processId", equalTo((int) p)).body("policy", equalTo("none"));
        put(given(), p, "on-batch").statusCode(200).body("policy", equalTo("on-batch"));
        given().get(trigger(p)).then().statusCode(200).body("policy", equalTo("on-batch"));
        put(given(), p, "all-enqueuers").statusCode(200).body("policy", equalTo("all-enqueuers"));
        given().get(trigger(p)).then().statusCode(200).body("policy", equalTo("all-enqueuers"));
        put(given(), p, "none").statusCode(200).body("policy", equalTo("none"));
        given().get(trigger(p)).then().statusCode(200).body("policy", equalTo("none"));

        // an Oozie parent (type 1) keeps its policy too: its launcher is what starts it
        long oozie = id(), os = id();
        register(bootstrap, ProcessTrees.parent(oozie).next(os).step(os, st -> st.next(oozie)));
        put(given(), oozie, "on-batch").statusCode(200).body("policy", equalTo("on-batch"));
    }

    @Test
    void anUnknownPolicyOrOneForAStepOrUnknownProcessIsRefused() {
        long p = id(), s = id();
        register(bootstrap, ProcessTrees.parent(p).workflowType(2).next(s).step(s, st -> st.next(p)));

        expect(put(given(), p, "all_enqueuers"), 400, 426).body("detail", containsString("'all_enqueuers' is not one"))
                .body("detail", containsString("'all-enqueuers'"));
        expect(put(given(), p, null), 400, 426);
        expect(given().contentType(ContentType.JSON).put(trigger(p)).then(), 400, 426);
        expect(put(given(), s, "on-batch"), 404, 427);
        expect(put(given(), 987_654_321L, "on-batch"), 404, 427);
        expect(given().get(trigger(987_654_321L)).then(), 404, 427);
        // nothing refused was written
        given().get(trigger(p)).then().statusCode(200).body("policy", equalTo("none"));
    }

    @Test
    void settingNeedsExecutePermissionOnTheApplication() {
        long app = 7_000 + System.nanoTime() % 1_000, p = id(), s = id();
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap)) {
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + app,
                    ProcessTrees.application(app, "olga", "ops", 7, 4, 4));
            f.register(ProcessTrees.parent(p).application(app).workflowType(2).next(s).step(s, st -> st.next(p)));
        }
        String olga = Identity.get().token("olga", Set.of("operator"), Set.of("ops"));
        String oscar = Identity.get().token("oscar", Set.of("operator"), Set.of());

        await().atMost(WAIT).untilAsserted(() -> put(given().auth().oauth2(olga), p, "on-batch").statusCode(200));
        expect(put(given().auth().oauth2(oscar), p, "none"), 403, 14);
        given().auth().oauth2(oscar).get(trigger(p)).then().statusCode(200).body("policy", equalTo("on-batch"));
    }

    private static ValidatableResponse put(io.restassured.specification.RequestSpecification request, long pid, String policy) {
        Map<String, Object> body = new HashMap<>();
        body.put("policy", policy);
        return request.contentType(ContentType.JSON).body(body).put(trigger(pid)).then();
    }

    private static ValidatableResponse expect(ValidatableResponse response, int status, int code) {
        return response.statusCode(status).contentType("application/problem+json").body("code", equalTo(code));
    }

    private static String trigger(long pid) {
        return "/processes/" + pid + "/trigger";
    }
}
