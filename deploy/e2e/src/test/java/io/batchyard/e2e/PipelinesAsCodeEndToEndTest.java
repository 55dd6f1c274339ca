package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipelines as code with the built CLI ({@code bin/batchyard export / plan / apply}) against the shared stack: a
 * hand-written file applied to an empty application name, exported, applied under a fresh name and exported again
 * gives the same file (trigger policy included, set in execution-service after the registry's transaction); a plan
 * after changes made by hand shows them field by field (and {@code --detect-drift} exits 6); an apply of a saved plan
 * after a concurrent change is refused naming the changed process, and changes nothing.
 */
class PipelinesAsCodeEndToEndTest {

    private static Stack stack;
    private static String token;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
        token = Identity.get().adminToken();
    }

    /** A job of two steps (the second consuming another job's batches), properties, a secret only named. */
    private static String pipeline(String application) {
        return """
                apiVersion: batchyard/v1
                application:
                  name: %s
                  description: pipelines as code, end to end
                  owner: data team
                processes:
                  - name: load
                    description: loads the day's sales
                    type: 1
                    workflowType: 1
                    canRecover: true
                    trigger: {policy: all-with-timeout, inputs: [{process: upstream}], timeout: PT120M, grain: day,
                      zone: Europe/Berlin}
                    next: [fetch]
                    properties:
                      - {group: param, key: "run mode", value: full}
                    steps:
                      - name: fetch
                        description: fetches the files
                        type: 12
                        workflowType: 0
                        canRecover: true
                        next: [store]
                        properties:
                          - {group: param, key: source, value: s3, description: where the files are}
                          - {group: credential, key: password, secret: true}
                      - name: store
                        description: stores them
                        type: 12
                        workflowType: 0
                        batchCutPattern: EOD
                        enqueuing: [{process: upstream}]
                        next: [load]
                  - name: upstream
                    description: delivers the batches
                    type: 1
                    workflowType: 1
                """.formatted(application);
    }

    @Test
    void exportApplyExportRoundTripsAndPlansShowDriftAndConflicts() throws Exception {
        String name = "pac-" + System.nanoTime();
        Path source = Files.createDirectories(dir.resolve("source"));
        Files.writeString(source.resolve("sales.yaml"), pipeline(name));

        // apply to a name the registry does not have: everything is created, in one transaction
        Run created = cli("apply", "-f", source.toString());
        assertThat(created.status).as(created.all()).isZero();
        assertThat(created.out).contains("+ create application '" + name + "'", "+ create process 'load/fetch'",
                "note: property 'load/fetch' password is a secret the file only names",
                "set the trigger of 'load' to all-with-timeout inputs=[upstream] timeout=PT2H grain=day zone=Europe/Berlin");
        assertThat(trigger(processId(name, "load"))).isEqualTo("all-with-timeout");
        setSecret(name, "fetch", "password");

        // two exports of one state are the same bytes
        Path exported = dir.resolve("exported");
        assertThat(cli("export", "--application", name, "-o", exported.toString()).status).isZero();
        Path file = exported.resolve(name + ".yaml");
        String first = Files.readString(file);
        assertThat(cli("export", "--application", name, "-o", dir.resolve("again").toString()).status).isZero();
        assertThat(Files.readString(dir.resolve("again").resolve(name + ".yaml"))).isEqualTo(first);
        assertThat(first).contains("secret: true", "policy: all-with-timeout", "timeout: PT2H", "zone: Europe/Berlin")
                .doesNotContain("hunter2", "secret: false");

        // export -> apply under a fresh name -> export gives the same file
        String copy = name + "-copy";
        Path copyDir = Files.createDirectories(dir.resolve("copy"));
        Files.writeString(copyDir.resolve(copy + ".yaml"), first.replace("name: " + name, "name: " + copy));
        Run applied = cli("apply", "-f", copyDir.toString());
        assertThat(applied.status).as(applied.all()).isZero();
        setSecret(copy, "fetch", "password");
        Path copyExport = dir.resolve("copy-export");
        assertThat(cli("export", "--application", copy, "-o", copyExport.toString()).status).isZero();
        assertThat(Files.readString(copyExport.resolve(copy + ".yaml")).replace("name: " + copy, "name: " + name))
                .isEqualTo(first);

        // a second apply changes nothing: no request is sent, no version moves
        List<Integer> versions = versions(copy);
        Run again = cli("apply", "-f", copyDir.toString());
        assertThat(again.status).as(again.all()).isZero();
        assertThat(again.out).contains("application '" + copy + "': no changes");
        assertThat(versions(copy)).isEqualTo(versions);
        assertThat(cli("plan", "-f", exported.toString(), "--detect-drift").status).isZero();

        // changes made by hand: the plan shows each field, old -> new, and --detect-drift exits 6
        long fetch = processId(name, "fetch");
        registry().contentType(ContentType.JSON).body(Map.of("description", "fetches by hand"))
                .patch("/processes/" + fetch).then().statusCode(200);
        registry().contentType(ContentType.JSON).body(Map.of("configGroup", "param", "value", "gcs",
                "description", "where the files are")).put("/processes/" + fetch + "/properties/source").then()
                .statusCode(200);
        long load = processId(name, "load");
        execution().contentType(ContentType.JSON).body(Map.of("policy", "on-batch"))
                .put("/processes/" + load + "/trigger").then().statusCode(200);
        Run drift = cli("plan", "-f", exported.toString(), "--detect-drift");
        assertThat(drift.status).as(drift.all()).isEqualTo(6);
        assertThat(drift.out).contains(
                "~ change process 'load'\n    trigger: \"each zone=UTC\" -> \"all-with-timeout inputs=[upstream]"
                        + " timeout=PT2H grain=day zone=Europe/Berlin\"",
                "~ change process 'load/fetch'\n    description: \"fetches by hand\" -> \"fetches the files\"",
                "~ change property 'load/fetch' source\n    value: \"gcs\" -> \"s3\"",
                "application '" + name + "': 0 to create, 3 to change, 0 to delete");
        assertThat(cli("plan", "-f", exported.toString()).status).isZero();

        // a plan saved, then a concurrent change: its apply is refused naming the process, and changes nothing
        Path plan = dir.resolve("plan.json");
        assertThat(cli("plan", "-f", exported.toString(), "--out", plan.toString()).status).isZero();
        long store = processId(name, "store");
        registry().contentType(ContentType.JSON).body(Map.of("description", "stores, changed meanwhile"))
                .patch("/processes/" + store).then().statusCode(200);
        List<Integer> before = versions(name);
        Run refused = cli("apply", "--plan", plan.toString());
        assertThat(refused.status).as(refused.all()).isEqualTo(1);
        assertThat(refused.err).contains("process 'load/store' (id " + store + ") changed since the plan");
        assertThat(versions(name)).isEqualTo(before);
        assertThat(registry().get("/processes/" + fetch).then().statusCode(200).extract().jsonPath()
                .getString("description")).isEqualTo("fetches by hand");
        assertThat(trigger(load)).isEqualTo("each"); // set second, after the registry's transaction: not reached

        // a fresh plan applies, and then the registry matches the file again
        Run fixed = cli("apply", "-f", exported.toString());
        assertThat(fixed.status).as(fixed.all()).isZero();
        assertThat(trigger(load)).isEqualTo("all-with-timeout");
        assertThat(cli("plan", "-f", exported.toString(), "--detect-drift").status).isZero();
    }

    @Test
    void aBrokenFileIsRefusedWithFileAndPathBeforeAnythingIsPlanned() throws Exception {
        String name = "pac-bad-" + System.nanoTime();
        Path source = Files.createDirectories(dir.resolve("bad"));
        Path file = source.resolve("bad.yaml");
        Files.writeString(file, pipeline(name).replace("next: [store]", "next: [nowhere]"));
        Run run = cli("apply", "-f", source.toString());
        assertThat(run.status).as(run.all()).isEqualTo(2);
        assertThat(run.err).contains(file + ": processes[0].steps[0].next[0]: 'nowhere' is not this parent or one of"
                + " its steps");
        assertThat(registry().queryParam("name", name).get("/applications").then().statusCode(200).extract()
                .jsonPath().getList("items")).isEmpty();
    }

    // ---- helpers ----

    /** Secrets are set on each process by hand (a file only names them). */
    private static void setSecret(String application, String step, String key) {
        registry().contentType(ContentType.JSON).body(Map.of("configGroup", "credential", "value", "hunter2"))
                .put("/processes/" + processId(application, step) + "/properties/" + key).then().statusCode(200);
    }

    private static long applicationId(String name) {
        return registry().queryParam("name", name).get("/applications").then().statusCode(200).extract().jsonPath()
                .getLong("items.find { it.name == '" + name + "' }.id");
    }

    private static JsonPath processes(String application) {
        return registry().queryParam("applicationId", applicationId(application)).queryParam("limit", 500)
                .get("/processes").then().statusCode(200).extract().jsonPath();
    }

    private static long processId(String application, String process) {
        return processes(application).getLong("items.find { it.name == '" + process + "' }.id");
    }

    private static List<Integer> versions(String application) {
        return processes(application).getList("items.version", Integer.class);
    }

    private static String trigger(long parent) {
        return execution().get("/processes/" + parent + "/trigger").then().statusCode(200).extract().jsonPath()
                .getString("policy");
    }

    private static RequestSpecification execution() {
        return given().baseUri(stack.execution.url()).header("Authorization", "Bearer " + token);
    }

    private static RequestSpecification registry() {
        return given().baseUri(stack.registry.url()).header("Authorization", "Bearer " + token);
    }

    private record Run(int status, String out, String err) {
        String all() {
            return out + err;
        }
    }

    /** {@code bin/batchyard} against the stack's registry, the token in the environment. */
    private static Run cli(String... args) throws IOException, InterruptedException {
        Path script = Path.of("..", "..", "client", "cli", "bin", "batchyard").toAbsolutePath().normalize();
        List<String> command = new ArrayList<>(List.of(script.toString()));
        command.addAll(List.of(args));
        command.addAll(List.of("--registry-url", stack.registry.url(), "--execution-url", stack.execution.url()));
        Path out = Files.createTempFile("pac", ".out");
        Path err = Files.createTempFile("pac", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("BATCHYARD_TOKEN", token);
        Process p = pb.start();
        try (InputStream ignored = p.getInputStream()) {
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("batchyard ended").isTrue();
        }
        Run run = new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
        System.out.println("[PipelinesAsCodeEndToEndTest] batchyard " + String.join(" ", args) + " -> exit "
                + run.status + "\n" + run.all());
        return run;
    }
}
