package io.batchyard.cli.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pipeline files: their rules, named by file and path, and stable bytes. */
class PipelineRulesTest {

    @TempDir
    Path dir;

    private static final String GOOD = """
            apiVersion: batchyard/v1
            application:
              name: sales
              description: sales data
              owner: data team
            processes:
              - name: load
                description: loads sales
                type: 1
                workflowType: 1
                canRecover: true
                next: [fetch]
                steps:
                  - name: fetch
                    description: fetches
                    type: 12
                    workflowType: 0
                    next: [load]
                    properties:
                      - {group: param, key: "my key", value: "007"}
                      - {group: credential, key: password, secret: true}
            """;

    @Test
    void aGoodFileReadsAndWritesBackTheSameBytes() throws Exception {
        Files.writeString(dir.resolve("sales.yaml"), GOOD);
        Pipeline p = PipelineFiles.read(dir).get(0).pipeline();
        assertThat(p.processes().get(0).steps().get(0).properties()).extracting(Pipeline.Property::value)
                .containsExactly("007", null);
        String text = PipelineFiles.text(p);
        Path again = dir.resolve("again");
        Files.createDirectories(again);
        Files.writeString(again.resolve("sales.yaml"), text);
        assertThat(PipelineFiles.text(PipelineFiles.read(again).get(0).pipeline())).isEqualTo(text);
        assertThat(text).contains("value: \"007\"", "key: password\n            secret: true")
                .doesNotContain("hunter2", "secret: false");
    }

    @Test
    void aTriggerMappingIsCheckedFieldByField() throws Exception {
        Files.writeString(dir.resolve("bad.yaml"), GOOD.replace("workflowType: 1", "workflowType: 1\n"
                + "    trigger: {policy: each, n: 0, timeout: soon, grain: fortnight, zone: Mars/Olympus,"
                + " coalesce: maybe, inputs: [{process: nobody}], colour: blue}"));
        assertThatThrownBy(() -> PipelineFiles.read(dir)).isInstanceOfSatisfying(PipelineRules.Invalid.class, e ->
                assertThat(e.errors()).extracting(s -> s.substring(s.indexOf(": ") + 2)).containsExactlyInAnyOrder(
                        "processes[0].trigger.colour: unknown field (known: coalesce, grain, inputs, n, policy, timeout, zone)",
                        "processes[0].trigger.n: a whole number of at least 1",
                        "processes[0].trigger.n: only for policy n-of",
                        "processes[0].trigger.timeout: an ISO-8601 duration such as PT2H",
                        "processes[0].trigger.timeout: only for policy all-with-timeout",
                        "processes[0].trigger.grain: one of upstream, hour, day, week, month",
                        "processes[0].trigger.zone: a time zone such as Europe/Berlin",
                        "processes[0].trigger.coalesce: must be true or false",
                        "processes[0].trigger.inputs[0]: 'nobody' is not an enqueuing process of any of its steps"));
    }

    @Test
    void everyBrokenRuleIsNamedByFileAndPath() throws Exception {
        Files.writeString(dir.resolve("bad.yaml"), GOOD
                .replace("next: [load]", "next: [nowhere]")
                .replace("{group: credential, key: password, secret: true}",
                        "{group: credential, key: password, value: hunter2, secret: true}")
                .replace("type: 12", "type: twelve\n        trigger: on-batch")
                .replace("workflowType: 1", "workflowType: 1\n    trigger: sometimes\n    deadlines: []")
                .replace("owner: data team", "owner: data team\n  colour: blue"));
        assertThatThrownBy(() -> PipelineFiles.read(dir)).isInstanceOfSatisfying(PipelineRules.Invalid.class, e ->
                assertThat(e.errors()).extracting(s -> s.substring(s.indexOf(": ") + 2, s.indexOf(": ",
                        s.indexOf(": ") + 2))).containsExactlyInAnyOrder(
                        "application.colour",
                        "processes[0].steps[0].type",
                        "processes[0].steps[0].trigger",
                        "processes[0].trigger",
                        "processes[0].deadlines",
                        "processes[0].steps[0].properties[1].value",
                        "processes[0].steps[0].next[0]"));
        assertThatThrownBy(() -> PipelineFiles.read(dir)).hasMessageContaining(dir.resolve("bad.yaml")
                + ": processes[0].steps[0].next[0]: 'nowhere' is not this parent or one of its steps");
    }

    @Test
    void aParentsDeadlinesAreCheckedAsTheRegistryWillAndAStepHasNone() {
        String withDeadlines = GOOD.replace("workflowType: 1", "workflowType: 1\n    deadlines: {zone: Europe/Berlin, "
                + "finishBy: PT6H}");
        assertThat(PipelineRules.check(readTree(withDeadlines))).isEmpty();
        String bad = GOOD.replace("workflowType: 1", "workflowType: 1\n    deadlines: {grain: fortnight, "
                + "finishBy: six hours}").replace("type: 12", "type: 12\n        deadlines: {zone: UTC, finishBy: PT1H}");
        assertThat(PipelineRules.check(readTree(bad))).extracting(e -> e.substring(0, e.indexOf(": "))).contains(
                "processes[0].deadlines.zone", "processes[0].deadlines.grain", "processes[0].deadlines.finishBy",
                "processes[0].steps[0].deadlines");
    }

    @Test
    void namesMustBeUniqueWithinATree() {
        String twice = GOOD.replace("name: fetch", "name: load");
        assertThat(PipelineRules.check(readTree(twice))).anyMatch(e -> e.startsWith("processes[0].steps[0].name: "
                + "'load' is taken in this tree"));
    }

    @Test
    void theSameApplicationInTwoFilesIsRefused() throws Exception {
        Files.writeString(dir.resolve("a.yaml"), GOOD);
        Files.writeString(dir.resolve("b.yml"), GOOD);
        assertThatThrownBy(() -> PipelineFiles.read(dir)).isInstanceOfSatisfying(PipelineRules.Invalid.class,
                e -> assertThat(e.errors()).isEqualTo(List.of("application 'sales' is in more than one file")));
    }

    private static com.fasterxml.jackson.databind.JsonNode readTree(String yaml) {
        try {
            return PipelineFiles.YAML.readTree(yaml);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
