package io.batchyard.registry.workflow;

import static io.batchyard.registry.workflow.WorkflowGraphTest.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.api.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generated Airflow DAG files compile with python3 and have the expected tasks, operators and dependencies, read
 * from their AST by src/test/resources/airflow/dag_structure.py; the step commands pass bash's syntax check.
 */
class AirflowDagWriterTest {

    private static final int SHELL = 22;
    private static final int HIVE = 9;
    private static final int PARENT = 2;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void chainRunsStepsInOrderBetweenInitAndHaltJob() throws Exception {
        StepSpec hive = new StepSpec(12, "s12", HIVE, true, List.of(13L), List.of(), "",
                Map.of("retry", List.of(entry("retries", "3"), entry("retry-delay-seconds", "60")),
                        "param", List.of(entry("region", "eu"))));
        JsonNode dag = dag(graph(parent(10, 11), step(11, SHELL, 12), hive, step(13, SHELL, 10)));

        assertThat(dag.at("/dag/dag_id").asText()).isEqualTo("batchyard_10");
        assertThat(dag.at("/dag/schedule").isNull()).isTrue();
        assertThat(dag.at("/dag/catchup").asBoolean(true)).isFalse();
        assertThat(dag.at("/dag/default_args").asText()).contains("'retries': 0", "timedelta(seconds=300)");
        assertThat(ids(dag)).containsExactly("init_job", "shell_11_s11", "hive_12_s12", "shell_13_s13", "halt_job",
                "term_job");
        assertThat(operators(dag)).containsExactly("PythonOperator", "BashOperator", "BashOperator", "BashOperator",
                "PythonOperator", "PythonOperator");
        assertThat(edges(dag)).containsExactlyInAnyOrder("init_job>shell_11_s11", "shell_11_s11>hive_12_s12",
                "hive_12_s12>shell_13_s13", "shell_13_s13>halt_job", "shell_11_s11>term_job", "hive_12_s12>term_job",
                "shell_13_s13>term_job", "halt_job>term_job");
        assertThat(dag.at("/tasks/term_job/trigger_rule").asText()).isEqualTo("one_failed");
        assertThat(dag.at("/tasks/hive_12_s12/retries").asInt()).isEqualTo(3);
        assertThat(dag.at("/tasks/shell_11_s11/retries").asInt()).isZero();
        // Hive gets BDRE's parameter names from init-job's outputs, then the step's own params
        String hiveCommand = dag.at("/tasks/hive_12_s12/bash_command").asText();
        assertThat(hiveCommand).contains("$BATCHYARD_HIVE_CLI -f 'hql/query12.hql'",
                "--hivevar 'exec-id='\"$BATCHYARD_OUT_INSTANCE_EXEC_ID\"",
                "--hivevar 'min-pri='\"$BATCHYARD_OUT_MIN_SOURCE_INSTANCE_EXEC_ID_MAP_12\"",
                "--hivevar 'max-pri='\"$BATCHYARD_OUT_MAX_SOURCE_INSTANCE_EXEC_ID_MAP_12\"",
                "--hiveconf 'run_id='\"$BATCHYARD_OUT_MIN_BATCH_ID_MAP_12\"", "--hivevar 'region=eu'", "by_step 12");
        assertThat(dag.at("/tasks/hive_12_s12/env/BATCHYARD_OUT_MIN_SOURCE_INSTANCE_EXEC_ID_MAP_12").asText())
                .isEqualTo("{{ ti.xcom_pull(task_ids='init_job').get('min-source-instance-exec-id-map.12', '') }}");
        assertThat(dag.at("/tasks/shell_11_s11/bash_command").asText()).contains("./'script11.sh'");
        bashSyntaxOk(dag);
    }

    @Test
    void everyPigTaskPassesItsOwnFirstBatchAsRunId() throws Exception {
        StepSpec withParams = new StepSpec(11, "s11", ActionFactory.PIG, true, List.of(12L), List.of(), "",
                Map.of("param", List.of(entry("region", "eu"), entry("run_id", "x"))));
        JsonNode dag = dag(graph(parent(10, 11), withParams, step(12, ActionFactory.PIG, 10)));
        // after the step's own params, as in the Oozie action; a registered run_id is not passed
        assertThat(dag.at("/tasks/pig_11_s11/bash_command").asText()).contains("pig -f 'pig/script11.pig'"
                + " -param 'region=eu' -param 'run_id='\"$BATCHYARD_OUT_MIN_BATCH_ID_MAP_11\"\n")
                .doesNotContain("'run_id=x'");
        assertThat(dag.at("/tasks/pig_12_s12/bash_command").asText())
                .contains("pig -f 'pig/script12.pig' -param 'run_id='\"$BATCHYARD_OUT_MIN_BATCH_ID_MAP_12\"\n");
        for (long id : new long[] {11, 12}) {
            assertThat(dag.at("/tasks/pig_" + id + "_s" + id + "/env/BATCHYARD_OUT_MIN_BATCH_ID_MAP_" + id).asText())
                    .isEqualTo("{{ ti.xcom_pull(task_ids='init_job').get('min-batch-id-map." + id + "', '') }}");
        }
        bashSyntaxOk(dag);
    }

    @Test
    void aStepTaskWrapsItsCommandInTheLifecycleCalls() throws Exception {
        JsonNode dag = dag(graph(parent(10, 11), step(11, SHELL, 10)));
        String command = dag.at("/tasks/shell_11_s11/bash_command").asText();
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path root = Files.createDirectories(dir.resolve("root"));
        Path log = dir.resolve("curl.log");
        // a stand-in for curl: logs the token config it reads on stdin and the URL, answers 200
        Path curl = curl(bin, "echo \"$config $url\" >> \"$CURL_LOG\"");
        Path script = root.resolve("script11.sh");
        Files.writeString(script, "#!/bin/bash\necho \"ran in $PWD\" >> \"$CURL_LOG\"\nexit \"$STEP_EXIT\"\n");
        assertThat(curl.toFile().setExecutable(true) && script.toFile().setExecutable(true)).isTrue();
        Map<String, String> env = Map.of("PATH", bin + ":" + System.getenv("PATH"), "CURL_LOG", log.toString(),
                "BATCHYARD_EXECUTION_URL", "http://execution:8082/", "BATCHYARD_TOKEN", "tok",
                "BATCHYARD_WORKFLOW_ROOT", root.toString(), "STEP_EXIT", "0");

        assertThat(bash(command, env)).isZero();
        assertThat(Files.readAllLines(log)).containsExactly(
                "header = \"Authorization: Bearer tok\" http://execution:8082/steps/11/init", "ran in " + root,
                "header = \"Authorization: Bearer tok\" http://execution:8082/steps/11/halt");
        Files.delete(log);
        Map<String, String> failing = new LinkedHashMap<>(env);
        failing.put("STEP_EXIT", "99"); // Airflow's skip code: a failed step must still fail the task
        assertThat(bash(command, failing)).isEqualTo(1);
        assertThat(Files.readAllLines(log)).containsExactly(
                "header = \"Authorization: Bearer tok\" http://execution:8082/steps/11/init", "ran in " + root,
                "header = \"Authorization: Bearer tok\" http://execution:8082/steps/11/term");
    }

    @Test
    void aRecoveryRunSkipsTheStepsBeforeWhereOozieWouldResume() throws Exception {
        // 11 -> 12 -> 13; Oozie's recovery-test: '12' resumes at init-step-12, '13' at init-step-13
        WorkflowGraph g = graph(parent(10, 11), step(11, SHELL, 12), step(12, SHELL, 13), step(13, SHELL, 10));
        assertThat(OozieWorkflowWriter.write(g)).contains(
                "<case to=\"init-step-12\">${wf:actionData('init-job')['last-recoverable-sp-id'] eq '12'}</case>",
                "<case to=\"init-step-13\">${wf:actionData('init-job')['last-recoverable-sp-id'] eq '13'}</case>");
        JsonNode dag = dag(g);
        assertThat(dag.at("/tasks/shell_11_s11/bash_command").asText()).contains("\nby_recovered 12 13\nby_work()");
        assertThat(dag.at("/tasks/shell_12_s12/bash_command").asText()).contains("\nby_recovered 13\nby_work()");
        assertThat(dag.at("/tasks/shell_13_s13/bash_command").asText()).doesNotContain("\nby_recovered ");
        assertThat(dag.at("/tasks/shell_11_s11/env/BATCHYARD_OUT_LAST_RECOVERABLE_SP_ID").asText())
                .isEqualTo("{{ ti.xcom_pull(task_ids='init_job').get('last-recoverable-sp-id', '') }}");
        // a skipped step must not skip its successors, a failed one must stop them
        for (String task : List.of("shell_11_s11", "shell_12_s12", "shell_13_s13", "halt_job")) {
            assertThat(dag.at("/tasks/" + task + "/trigger_rule").asText()).as(task).isEqualTo("none_failed");
        }
        bashSyntaxOk(dag);

        StandIn standIn = standIn(11, 12, 13);
        // a fresh run (InitJob's last-recoverable-sp-id is empty) runs every step
        assertThat(runSteps(dag, standIn, "")).containsExactly(0, 0, 0);
        assertThat(standIn.calls()).containsExactly("init 11", "ran 11", "halt 11", "init 12", "ran 12", "halt 12",
                "init 13", "ran 13", "halt 13");
        // step 12 was the last recoverable step to complete: execution-service names 13, where the run resumes
        assertThat(runSteps(dag, standIn, "13")).containsExactly(99, 99, 0);
        assertThat(standIn.calls()).containsExactly("init 13", "ran 13", "halt 13");
        assertThat(runSteps(dag, standIn, "12")).containsExactly(99, 0, 0);
        assertThat(standIn.calls()).containsExactly("init 12", "ran 12", "halt 12", "init 13", "ran 13", "halt 13");
        // the parent's id (the last step had completed) or an unknown id: no case in Oozie either, start over
        assertThat(runSteps(dag, standIn, "10")).containsExactly(0, 0, 0);
        assertThat(standIn.calls()).hasSize(9);
    }

    @Test
    void forksAndJoinsAreDependencies() throws Exception {
        // 11 -> {12, 13} -> 14
        JsonNode dag = dag(graph(parent(10, 11), step(11, SHELL, 12, 13), step(12, SHELL, 14), step(13, SHELL, 14),
                step(14, SHELL, 10)));
        assertThat(edges(dag)).contains("init_job>shell_11_s11", "shell_11_s11>shell_12_s12",
                "shell_11_s11>shell_13_s13", "shell_12_s12>shell_14_s14", "shell_13_s13>shell_14_s14",
                "shell_14_s14>halt_job");
        assertThat(edges(dag).stream().filter(e -> !e.endsWith(">term_job"))).hasSize(6);
        assertThat(edges(dag).stream().filter(e -> e.endsWith(">term_job"))).hasSize(5);
        // the join runs when no branch failed, also when a recovery run skipped the branches
        assertThat(dag.at("/tasks/shell_14_s14/trigger_rule").asText()).isEqualTo("none_failed");
        assertThat(dag.at("/tasks/halt_job/trigger_rule").asText()).isEqualTo("none_failed");
        // Oozie resumes at fork-11 for '11' and at init-step-14 (after the join) for '14'
        assertThat(dag.at("/tasks/shell_11_s11/bash_command").asText()).contains("\nby_recovered 11 14\n");
        assertThat(dag.at("/tasks/shell_12_s12/bash_command").asText()).contains("\nby_recovered 14\n");
        assertThat(dag.at("/tasks/shell_13_s13/bash_command").asText()).contains("\nby_recovered 14\n");
        assertThat(dag.at("/tasks/shell_14_s14/bash_command").asText()).doesNotContain("\nby_recovered ");
        bashSyntaxOk(dag);
    }

    @Test
    void everyStepTypeBecomesATask() throws Exception {
        List<Integer> types = ActionFactory.BY_TYPE.keySet().stream().sorted().toList();
        List<StepSpec> steps = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            long id = 100 + i;
            long next = i + 1 < types.size() ? id + 1 : 10;
            steps.add(new StepSpec(id, "s" + id, types.get(i), true, List.of(next), List.of(), "",
                    Map.of("ppid", List.of(entry("ppid", "99")), "param", List.of(entry("run_id", "x")),
                            "file", WorkflowGraphTest.FILE)));
        }
        JsonNode dag = dag(WorkflowGraph.of(parent(10, 100), steps, new ActionFactory()));
        Map<Integer, String> commands = new LinkedHashMap<>();
        for (int i = 0; i < types.size(); i++) {
            long id = 100 + i;
            JsonNode task = taskOfStep(dag, id);
            if (types.get(i) == ActionFactory.SUB_WORKFLOW) {
                assertThat(task.get("operator").asText()).isEqualTo("TriggerDagRunOperator");
                assertThat(task.get("trigger_dag_id").asText()).isEqualTo("batchyard_99");
                assertThat(edges(dag)).contains("init_step_" + id + ">" + task.get("task_id").asText(),
                        task.get("task_id").asText() + ">halt_step_" + id, "halt_step_" + id + ">halt_job", // 40 is the last type
                        task.get("task_id").asText() + ">term_step_" + id);
                assertThat(dag.at("/tasks/term_step_" + id + "/trigger_rule").asText()).isEqualTo("one_failed");
            } else {
                assertThat(task.get("operator").asText()).as("type %s", types.get(i)).isEqualTo("BashOperator");
                assertThat(task.get("bash_command").asText()).contains("by_step " + id + "\n");
                commands.put(types.get(i), task.get("bash_command").asText());
            }
        }
        assertThat(commands.get(ActionFactory.SPARK)).contains("spark-submit '--class' 'SparkMainClass");
        assertThat(commands.get(ActionFactory.PIG)).contains("pig -f", "-param 'run_id='\"$BATCHYARD_OUT_MIN_BATCH_ID_MAP_");
        assertThat(commands.get(ActionFactory.SOURCE_TO_DEST_COPY)).contains("hadoop distcp");
        assertThat(commands.get(ActionFactory.MAP_REDUCE)).contains("hadoop 'JavaMainClass");
        assertThat(commands.get(ActionFactory.HADOOP_STREAMING)).contains("hadoop jar \"$BATCHYARD_STREAMING_JAR\"");
        assertThat(commands.get(ActionFactory.R)).contains("./'Rhadoop.sh' 'R/script");
        assertThat(commands.get(ActionFactory.RAW_LOAD)).contains("'io.batchyard.client.oozie.OozieRawLoad'");
        // import, then registration of the file it reported (read from the import's captured properties)
        assertThat(commands.get(ActionFactory.DATA_IMPORT)).contains(
                "-Doozie.action.output.properties=\"$BY_OUT_DIR/n1.properties\" 'io.batchyard.client.etl.DataImportMain'",
                "'io.batchyard.client.oozie.RegisterFile' '--sub-process-id'", "\"$(by_prop n1 'fileList')\"");
        // a file registration step on its own registers the file its group "file" names
        assertThat(commands.get(ActionFactory.FILE_REGISTRATION)).contains("'io.batchyard.client.oozie.RegisterFile'"
                + " '--sub-process-id' '" + (100 + types.indexOf(ActionFactory.FILE_REGISTRATION)) + "' '--path' '/data/in/f 1.csv' '--file-size' '1024' '--file-hash' '9f86d081'"
                + " '--creation-timestamp' '2024-01-02 03:04:05' '--batch-id' \"$BATCHYARD_OUT_TARGET_BATCH_ID\"");
        assertThat(commands.get(ActionFactory.DQ)).contains("\"$(by_prop n1 'file-list')\"", "\"$(by_prop n2 'fileList')\"");
        bashSyntaxOk(dag);
        assertThatThrownBy(() -> graph(parent(10, 11), step(11, 77, 10))).isInstanceOf(ApiException.class)
                .hasMessageContaining("Don't know how to handle processInfo.getProcessTypeId()=77");
    }

    @Test
    void quotesNewlinesAndTemplatesInUserValuesStayValues() throws Exception {
        String nasty = "it's \"quoted\"\n'''\"\"\" \\ {{ dag_run }} {% if %} {# c #} \u00e9\u2028\ud83d\ude00";
        StepSpec parent = new StepSpec(10, nasty, PARENT, true, List.of(11L), List.of(), nasty, Map.of());
        StepSpec shell = new StepSpec(11, nasty, SHELL, true, List.of(12L), List.of(), nasty,
                Map.of("script", List.of(entry("s", "shell/x'; rm -rf / #{{ y }}.sh")),
                        "param", List.of(entry("a", nasty))));
        StepSpec hive = new StepSpec(12, "h", HIVE, true, List.of(10L), List.of(), "",
                Map.of("param", List.of(entry("k", nasty))));
        JsonNode dag = dag(graph(parent, shell, hive));
        assertThat(dag.at("/dag/description").asText()).isEqualTo(nasty);
        assertThat(dag.at("/dag/doc_md").asText()).isEqualTo(nasty);
        assertThat(ids(dag)).contains("shell_11_it_s__quoted______________dag_run___", "hive_12_h");
        for (JsonNode task : dag.get("tasks")) {
            String command = task.path("bash_command").asText();
            // Airflow renders bash_command with Jinja: no registered value may open a tag
            assertThat(command).doesNotContain("{{", "{%", "{#");
        }
        bashSyntaxOk(dag);
        // the shell words carry the values unchanged: bash prints them back
        String words = AirflowDagWriter.sh(nasty) + " " + AirflowDagWriter.sh("shell/x'; rm -rf / #{{ y }}.sh");
        assertThat(run(List.of("bash", "-c", "printf '%s|' " + words), null))
                .isEqualTo(nasty + "|shell/x'; rm -rf / #{{ y }}.sh|");
    }

    @ParameterizedTest
    @MethodSource("io.batchyard.registry.workflow.WorkflowGraphTest#hostileNames")
    void hostileNamesAreStringLiteralsOfTheDag(String name) throws Exception {
        StepSpec parent = new StepSpec(10, name, PARENT, true, List.of(11L), List.of(), name, Map.of());
        StepSpec shell = new StepSpec(11, name, SHELL, true, List.of(12L), List.of(), name,
                Map.of("param", List.of(entry("p", name))));
        StepSpec sub = new StepSpec(12, name, ActionFactory.SUB_WORKFLOW, true, List.of(10L), List.of(), "",
                Map.of("ppid", List.of(entry("ppid", "99"))));
        // compiles, and its AST gives the names back as they were registered
        JsonNode dag = dag(graph(parent, shell, sub));
        assertThat(dag.at("/dag/description").asText()).isEqualTo(name);
        assertThat(dag.at("/dag/doc_md").asText()).isEqualTo(name);
        JsonNode task = null;
        JsonNode trigger = null;
        for (JsonNode t : dag.get("tasks")) {
            assertThat(t.get("task_id").asText()).matches("[A-Za-z0-9_]+");
            if (t.at("/env/BATCHYARD_PROCESS_ID").asText().equals("11")) {
                task = t;
            } else if (t.get("operator").asText().equals("TriggerDagRunOperator")) {
                trigger = t;
            }
        }
        assertThat(task.get("doc").asText()).isEqualTo("step 11: " + name + "\n\n" + name);
        assertThat(trigger.get("doc").asText()).isEqualTo("step 12: " + name);
        assertThat(task.get("bash_command").asText()).contains(AirflowDagWriter.sh(name));
        bashSyntaxOk(dag);
    }

    // ---- helpers ----

    /** The interpreter python3 on the PATH runs, asked once: a version manager's shim costs half a second a call. */
    private static String python;

    /** Writes the DAG file, compiles it with py_compile and answers its structure as dag_structure.py reads it. */
    private JsonNode dag(WorkflowGraph g) throws Exception {
        if (python == null) {
            python = run(List.of("python3", "-c", "import sys; print(sys.executable)"), null).strip();
        }
        Path file = dir.resolve("batchyard_" + g.parent.processId() + ".py");
        Files.writeString(file, AirflowDagWriter.write(g), StandardCharsets.UTF_8);
        run(List.of(python, "-m", "py_compile", file.toString()), null);
        Path script = dir.resolve("dag_structure.py");
        try (InputStream in = getClass().getResourceAsStream("/airflow/dag_structure.py")) {
            Files.write(script, in.readAllBytes());
        }
        return JSON.readTree(run(List.of(python, script.toString(), file.toString()), null));
    }

    /** A stand-in curl answering 200 with {}; {@code logLine} logs the call from $config (stdin) and $url. */
    private static Path curl(Path bin, String logLine) throws IOException {
        Path curl = bin.resolve("curl");
        Files.writeString(curl, """
                #!/bin/bash
                config=$(cat)
                while [ $# -gt 0 ]; do
                  case "$1" in --output) out=$2; shift 2 ;; --write-out|--config|--request) shift 2 ;; *) url=$1; shift ;; esac
                done
                """ + logLine + """

                echo '{}' > "$out"
                printf 200
                """);
        return curl;
    }

    /** A stand-in curl and step scripts logging "init|halt|term <step>" and "ran <step>" to one file. */
    private record StandIn(Path log, Map<String, String> env) {
        List<String> calls() throws IOException {
            if (!Files.exists(log)) {
                return List.of();
            }
            List<String> lines = Files.readAllLines(log);
            Files.delete(log);
            return lines;
        }
    }

    private StandIn standIn(long... steps) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path root = Files.createDirectories(dir.resolve("root"));
        Path log = dir.resolve("calls.log");
        Path curl = curl(bin, "step=${url%/*}; echo \"${url##*/} ${step##*/}\" >> \"$CURL_LOG\"");
        assertThat(curl.toFile().setExecutable(true)).isTrue();
        for (long id : steps) {
            Path script = root.resolve("script" + id + ".sh");
            Files.writeString(script, "#!/bin/bash\necho \"ran " + id + "\" >> \"$CURL_LOG\"\n");
            assertThat(script.toFile().setExecutable(true)).isTrue();
        }
        return new StandIn(log, Map.of("PATH", bin + ":" + System.getenv("PATH"), "CURL_LOG", log.toString(),
                "BATCHYARD_EXECUTION_URL", "http://execution:8082", "BATCHYARD_TOKEN", "tok",
                "BATCHYARD_WORKFLOW_ROOT", root.toString()));
    }

    /** Runs every step task's command in task order, as a run with the given last-recoverable-sp-id; their exit codes. */
    private static List<Integer> runSteps(JsonNode dag, StandIn standIn, String lastRecoverable) throws Exception {
        List<Integer> codes = new ArrayList<>();
        for (JsonNode task : dag.get("tasks")) {
            if (task.has("bash_command")) {
                Map<String, String> env = new LinkedHashMap<>(standIn.env());
                env.put("BATCHYARD_OUT_LAST_RECOVERABLE_SP_ID", lastRecoverable);
                env.put("BATCHYARD_PROCESS_ID", task.at("/env/BATCHYARD_PROCESS_ID").asText());
                codes.add(bash(task.get("bash_command").asText(), env));
            }
        }
        return codes;
    }

    private static int bash(String command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }

    private void bashSyntaxOk(JsonNode dag) throws Exception {
        for (JsonNode task : dag.get("tasks")) {
            if (task.has("bash_command")) {
                run(List.of("bash", "-n"), task.get("bash_command").asText());
            }
        }
    }

    private static String run(List<String> command, String stdin) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(command).start();
        } catch (IOException e) {
            return fail(command.get(0) + " is not on PATH (" + e.getMessage() + "): the Airflow DAG tests compile "
                    + "and parse the generated file with python3 and check its commands with bash; install them");
        }
        try (var in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        assertThat(p.exitValue()).as("%s failed: %s", command, err).isZero();
        return out;
    }

    private static List<String> ids(JsonNode dag) {
        List<String> ids = new ArrayList<>();
        dag.get("tasks").fieldNames().forEachRemaining(ids::add);
        return ids;
    }

    private static List<String> operators(JsonNode dag) {
        List<String> ops = new ArrayList<>();
        dag.get("tasks").forEach(t -> ops.add(t.get("operator").asText()));
        return ops;
    }

    private static List<String> edges(JsonNode dag) {
        List<String> edges = new ArrayList<>();
        dag.get("edges").forEach(e -> edges.add(e.get(0).asText() + ">" + e.get(1).asText()));
        return edges;
    }

    private static JsonNode taskOfStep(JsonNode dag, long id) {
        for (JsonNode t : dag.get("tasks")) {
            String taskId = t.get("task_id").asText();
            if (taskId.matches("[A-Za-z_]+_" + id + "_s" + id)) {
                return t;
            }
        }
        return fail("no task for step " + id + " in " + ids(dag));
    }

    private static WorkflowGraph graph(StepSpec parent, StepSpec... steps) {
        return WorkflowGraph.of(parent, List.of(steps), new ActionFactory());
    }

    private static StepSpec parent(long id, long next) {
        return new StepSpec(id, "p" + id, PARENT, true, List.of(next), List.of(), "", Map.of());
    }

    private static StepSpec step(long id, int type, long... next) {
        List<Long> ids = new ArrayList<>();
        for (long n : next) {
            ids.add(n);
        }
        return new StepSpec(id, "s" + id, type, true, ids, List.of(), "", Map.of());
    }
}
