package io.batchyard.registry.workflow;

import static io.batchyard.registry.Fixtures.SEMANTIC;
import static io.batchyard.registry.Fixtures.SHELL;
import static io.batchyard.registry.Fixtures.application;
import static io.batchyard.registry.Fixtures.link;
import static io.batchyard.registry.Fixtures.parent;
import static io.batchyard.registry.Fixtures.patch;
import static io.batchyard.registry.Fixtures.step;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.registry.RegistryTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The SVG format through the API with a stand-in for Graphviz (batchyard.graphviz.dot) that hangs, or floods its
 * diagnostics without end when the picture holds a step named "flood": each request is answered 503 problem+json
 * (code 216) within the deadline (batchyard.graphviz.timeout, 2 s here), and the service keeps answering.
 */
@RegistryTest
@TestProfile(GraphvizDeadlineTest.StuckDot.class)
class GraphvizDeadlineTest {

    public static class StuckDot implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                Path dot = Files.createTempFile("stuck-dot", ".sh");
                Files.writeString(dot, """
                        #!/bin/sh
                        if grep -q flood; then exec yes 'Warning: flood' >&2; fi
                        exec sleep 300
                        """);
                assertThat(dot.toFile().setExecutable(true)).isTrue();
                dot.toFile().deleteOnExit();
                return Map.of("batchyard.graphviz.dot", dot.toString(), "batchyard.graphviz.timeout", "PT2S");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Test
    void aHungOrFloodingDotIsA503WithinTheDeadline() {
        long app = application();
        long hung = parent(app, SEMANTIC);
        long a = step(app, hung, SHELL);
        link(hung, a);
        link(a, hung);
        long flooding = parent(app, SEMANTIC);
        long b = step(app, flooding, SHELL);
        patch(b, Map.of("name", "flood")).statusCode(200);
        link(flooding, b);
        link(b, flooding);

        for (long job : new long[] {hung, flooding, hung}) {
            long started = System.nanoTime();
            given().queryParam("format", "svg").get("/processes/" + job + "/workflow").then().statusCode(503)
                    .contentType("application/problem+json").body("code", equalTo(216))
                    .body("detail", containsString("did not finish within PT2S"));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        }
        // the DOT itself never needed Graphviz
        given().queryParam("format", "dot").get("/processes/" + hung + "/workflow").then().statusCode(200);
    }
}
