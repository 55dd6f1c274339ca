package io.batchyard.registry.workflow;

import static io.batchyard.registry.workflow.OozieWorkflowWriter.initJob;

import io.batchyard.registry.RegistryError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Maps a step's process type and properties to the action node(s) it runs. {@link #BY_TYPE} is the whole rule: one
 * row per step type, each a chain of node builders; a type without a row cannot be generated and is refused with the
 * reference's text. The nodes of one step run one after another (ok -> next) and share the step's term-step.
 */
public final class ActionFactory {

    static final int RAW_LOAD = 6;
    static final int STAGE_LOAD = 7;
    static final int BASE_LOAD = 8;
    static final int HIVE = 9;
    static final int PIG = 10;
    static final int MAP_REDUCE = 11;
    static final int SFTP = 12;
    static final int DATA_IMPORT = 13;
    static final int HIVE_GENERATION = 14;
    static final int FILE_REGISTRATION = 15;
    static final int DQ = 16;
    static final int DATA_EXPORT = 17;
    static final int SHELL = 22;
    static final int R = 24;
    static final int SPARK = 25;
    static final int WEB_CRAWLER = 29;
    static final int HADOOP_STREAMING = 30;
    static final int MIGRATION_PREPROCESSING = 32;
    static final int SOURCE_STAGE_LOAD = 33;
    static final int SOURCE_TO_DEST_COPY = 34;
    static final int DESTINATION_TABLE_LOAD = 35;
    static final int REGISTER_PARTITION = 36;
    static final int SUB_WORKFLOW = 40;

    /** Lifecycle-side programs of the Batchyard Oozie client, beside the lifecycle mains (InitJob, …). */
    static final String OOZIE_CLIENT = OozieWorkflowWriter.CLIENT_PACKAGE;
    /** BDRE's ETL programs (import, export, data generation, DQ, SFTP, crawler): mains a deployment provides. */
    static final String ETL_CLIENT = "io.batchyard.client.etl.";
    /** The server id BDRE's file registration names when the step and its parent name none: the seeded hdfs server. */
    static final String FILE_SERVER_ID = "123461";

    /** Builds one action node of a step; {@code previous} is the name of the node before it (init-step or action). */
    @FunctionalInterface
    interface NodeBuilder {
        Action build(StepSpec s, String previous);
    }

    static final Map<Integer, List<NodeBuilder>> BY_TYPE = Map.ofEntries(
            Map.entry(SHELL, List.of((s, prev) -> shell(s))),
            Map.entry(HIVE, List.of((s, prev) -> hive("hive", s, "query"))),
            Map.entry(PIG, List.of((s, prev) -> new Action.Pig(
                    first(s, "script").orElse("pig/script" + s.processId() + ".pig"), pigParams(s)))),
            Map.entry(MAP_REDUCE, List.of((s, prev) -> java("mapreduce",
                    first(s, "program").orElse("JavaMainClass" + s.processId()), values(s, "param")))),
            Map.entry(SPARK, List.of((s, prev) -> spark(s))),
            // R scripts run through BDRE's Rhadoop.sh wrapper, which the deployment ships beside the workflow.
            Map.entry(R, List.of((s, prev) -> r(s))),
            Map.entry(HADOOP_STREAMING, List.of((s, prev) -> streaming(s))),
            // Import and Hive data generation write files, which the step then registers in the catalog.
            Map.entry(DATA_IMPORT, List.of((s, prev) -> etl("import", "DataImportMain", s, "imp-common"),
                    ActionFactory::fileRegistration)),
            Map.entry(DATA_EXPORT, List.of((s, prev) -> etl("export", "DataExportMain", s, "exp-common"))),
            Map.entry(HIVE_GENERATION, List.of((s, prev) -> captured("hive-generation", ETL_CLIENT + "GeneratorMain",
                    List.of("--sub-process-id", id(s))), ActionFactory::fileRegistration)),
            // DQ: find the step's input files, check them, register the checked output.
            Map.entry(DQ, List.of((s, prev) -> captured("lof", OOZIE_CLIENT + "OozieGetETLDriver", List.of(
                            "--min-batch-id", initJob("min-batch-id-map." + s.processId()),
                            "--max-batch-id", initJob("max-batch-id-map." + s.processId()))),
                    (s, prev) -> captured("data-quality", ETL_CLIENT + "DQMain", List.of("--process-id", id(s),
                            "--source-file-path", output(prev, "file-list"),
                            "--destination-directory", first(s, "dq-output").orElse("/dq/" + s.processId()))),
                    ActionFactory::fileRegistration)),
            Map.entry(FILE_REGISTRATION, List.of(ActionFactory::fileRegistration)),
            Map.entry(RAW_LOAD, List.of((s, prev) -> java("rawLoad", OOZIE_CLIENT + "OozieRawLoad", List.of(
                    "--process-id", id(s), "--instance-exec-id", initJob("instance-exec-id"),
                    "--list-of-files", initJob("file-list-map." + s.processId()))))),
            Map.entry(STAGE_LOAD, List.of((s, prev) -> batchRangeLoad("stageLoad", "OozieStageLoad", s))),
            Map.entry(BASE_LOAD, List.of((s, prev) -> batchRangeLoad("baseLoad", "OozieBaseLoad", s))),
            // BDRE ran SFTP outside Oozie; here it is a java action of the client so the step keeps its lifecycle.
            Map.entry(SFTP, List.of((s, prev) -> java("sftp", ETL_CLIENT + "SftpMain",
                    List.of("--process-id", id(s), "--instance-exec-id", initJob("instance-exec-id"))))),
            Map.entry(WEB_CRAWLER, List.of((s, prev) -> java("crawler-mapreduce", ETL_CLIENT + "CrawlerMain",
                    List.of("--sub-process-id", id(s), "--instance-exec-id", initJob("instance-exec-id"))))),
            Map.entry(SUB_WORKFLOW, List.of((s, prev) -> subWorkflow(s))),
            Map.entry(MIGRATION_PREPROCESSING, List.of((s, prev) -> java("migration-preprocessor",
                    ETL_CLIENT + "MigrationPreprocessorMain", List.of("--process-id", id(s))))),
            Map.entry(SOURCE_STAGE_LOAD, List.of((s, prev) -> hive("source-stg-load", s, "source-stg-load"))),
            // Copying between clusters is Hadoop's own DistCp main, source and destination from group "param".
            Map.entry(SOURCE_TO_DEST_COPY, List.of((s, prev) -> java("src-dest-copy", "org.apache.hadoop.tools.DistCp",
                    values(s, "param")))),
            Map.entry(DESTINATION_TABLE_LOAD, List.of((s, prev) -> hive("dest-table-load", s, "dest-table-load"))),
            Map.entry(REGISTER_PARTITION, List.of((s, prev) -> hive("reg-partitions", s, "reg-partitions"))));

    List<Node> actionsFor(StepSpec s) {
        List<NodeBuilder> builders = BY_TYPE.get(s.processTypeId());
        if (builders == null) {
            throw RegistryError.WORKFLOW_SHAPE.exception(
                    "Don't know how to handle processInfo.getProcessTypeId()=" + s.processTypeId()
                            + " (step " + s.processId() + ")");
        }
        List<Node> nodes = new ArrayList<>();
        String previous = "init-step-" + s.processId();
        for (NodeBuilder b : builders) {
            Action action = b.build(s, previous);
            // Named after the step as registered; Node keeps that as the label and makes the name an identifier.
            Node node = new Node(action.prefix() + "-" + s.processId() + "-" + s.name(), Node.Kind.ACTION,
                    List.of(s.processId()));
            node.action = action;
            node.step = s;
            nodes.add(node);
            previous = node.name;
        }
        return nodes;
    }

    /**
     * Group "param" as a Pig action's params, all but {@code run_id}: every Pig action is given the step's first
     * batch under that name, so a registered value for it would only be a second, contradicting definition.
     */
    private static List<String> pigParams(StepSpec s) {
        return s.group("param").stream().filter(e -> !e.getKey().equals(OozieWorkflowWriter.PIG_RUN_ID))
                .map(e -> e.getKey() + "=" + e.getValue()).toList();
    }

    private static Action shell(StepSpec s) {
        List<Map.Entry<String, String>> scripts = s.group("script");
        if (scripts.size() > 1) {
            throw RegistryError.WORKFLOW_SHAPE.exception("Can Handle only 1 script in shell action "
                    + "processInfo.getProcessTypeId()=" + s.processTypeId() + " (step " + s.processId() + " has "
                    + scripts.size() + ")");
        }
        String script = scripts.isEmpty() ? "script" + s.processId() + ".sh" : scripts.get(0).getValue();
        List<String> files = new ArrayList<>();
        files.add(script);
        files.addAll(values(s, "extraFiles"));
        return new Action.Shell("shell", script.startsWith("shell/") ? script.substring("shell/".length()) : script,
                values(s, "param"), files);
    }

    private static Action r(StepSpec s) {
        String script = first(s, "script").orElse("R/script" + s.processId() + ".R");
        List<String> args = new ArrayList<>();
        args.add(script);
        args.addAll(values(s, "param"));
        return new Action.Shell("R", "Rhadoop.sh", args, List.of("Rhadoop.sh", script));
    }

    /** A Hive script from group "query" (else {@code hql/<scriptName><id>.hql}) with the step's "param" group. */
    private static Action hive(String prefix, StepSpec s, String scriptName) {
        return new Action.Hive(prefix, first(s, "query").orElse("hql/" + scriptName + s.processId() + ".hql"),
                keyValues(s, "param"));
    }

    private static Action spark(StepSpec s) {
        List<String> args = new ArrayList<>();
        args.add("--class");
        args.add(first(s, "program").orElse("SparkMainClass" + s.processId()));
        args.add("--master");
        args.add("yarn");
        args.add(first(s, "script").orElse("spark/app" + s.processId() + ".jar"));
        args.addAll(values(s, "param"));
        return java("spark", "org.apache.spark.deploy.SparkSubmit", args);
    }

    private static Action streaming(StepSpec s) {
        String mapper = param(s, "mapper").orElse("mapper" + s.processId());
        String reducer = param(s, "reducer").orElse("reducer" + s.processId());
        return new Action.Streaming(mapper, reducer, param(s, "input").orElse("/streaming/" + s.processId() + "/in"),
                param(s, "output").orElse("/streaming/" + s.processId() + "/out"), List.of(mapper, reducer));
    }

    private static Action subWorkflow(StepSpec s) {
        String ppid = first(s, "ppid").orElseThrow(() -> RegistryError.WORKFLOW_SHAPE.exception("sub-workflow step "
                + s.processId() + " names no parent process in property group 'ppid'"));
        try {
            return new Action.SubWorkflow(Long.parseLong(ppid.trim()));
        } catch (NumberFormatException e) {
            throw RegistryError.WORKFLOW_SHAPE.exception("sub-workflow step " + s.processId()
                    + ": property group 'ppid' holds '" + ppid + "', not a process id");
        }
    }

    /** An ETL program run for the step's run: its process, settings group, run and target batch. */
    private static Action etl(String prefix, String main, StepSpec s, String configGroup) {
        return captured(prefix, ETL_CLIENT + main, List.of("--process-id", id(s), "--config-group", configGroup,
                "--instance-exec-id", initJob("instance-exec-id"), "--batch-id", initJob("target-batch-id")));
    }

    private static Action batchRangeLoad(String prefix, String main, StepSpec s) {
        return java(prefix, OOZIE_CLIENT + main, List.of("--process-id", id(s),
                "--instance-exec-id", initJob("instance-exec-id"),
                "--min-batch-id", initJob("min-batch-id-map." + s.processId()),
                "--max-batch-id", initJob("max-batch-id-map." + s.processId())));
    }

    /**
     * Property group of a stand-alone file registration step naming its file, keyed by RegisterFile's (BDRE's) input
     * names; {@code path} and {@code file-size} are required, as by RegisterFile. A producing node captures the same
     * values as {@link #CAPTURED_FILE_KEYS}, in the same order.
     */
    static final String FILE_GROUP = "file";
    static final List<String> FILE_KEYS = List.of("path", "file-size", "file-hash", "creation-timestamp");
    private static final List<String> CAPTURED_FILE_KEYS = List.of("fileList", "fileSize", "fileHash", "creationTs");

    /**
     * Registers a file as the batch this run produces: the one the previous node reported (its captured output), or,
     * for a file registration step on its own, whose previous node is its init-step (which reports no file), the one
     * its {@value #FILE_GROUP} group names.
     */
    private static Action fileRegistration(StepSpec s, String previous) {
        List<String> args = new ArrayList<>(List.of("--sub-process-id", id(s)));
        boolean alone = previous.equals("init-step-" + s.processId());
        if (alone) {
            requireFile(s);
        }
        for (int i = 0; i < FILE_KEYS.size(); i++) {
            Optional<String> value = alone ? fileProperty(s, FILE_KEYS.get(i))
                    : Optional.of(output(previous, CAPTURED_FILE_KEYS.get(i)));
            if (value.isPresent()) {
                args.add("--" + FILE_KEYS.get(i));
                args.add(value.get());
            }
        }
        String server = s.serverId() != null ? String.valueOf(s.serverId()) : FILE_SERVER_ID;
        args.addAll(List.of("--batch-id", initJob("target-batch-id"), "--server-id", server));
        return java("fileRegistration", OOZIE_CLIENT + "RegisterFile", args);
    }

    /** A stand-alone registration must name the file RegisterFile requires: its path and its size in bytes. */
    private static void requireFile(StepSpec s) {
        List<String> missing = FILE_KEYS.subList(0, 2).stream().filter(k -> fileProperty(s, k).isEmpty()).toList();
        String detail = null;
        if (!missing.isEmpty()) {
            detail = "missing or blank " + String.join(", ", missing);
        } else if (!fileProperty(s, "file-size").orElseThrow().trim().matches("[0-9]{1,18}")) {
            detail = "file-size '" + fileProperty(s, "file-size").orElseThrow() + "' is not a size in bytes";
        }
        if (detail != null) {
            throw RegistryError.FILE_REGISTRATION_WITHOUT_FILE.exception("file registration step " + s.processId()
                    + " has no node before it that reports a file, so its property group '" + FILE_GROUP
                    + "' names the file (keys " + String.join(", ", FILE_KEYS) + "; path and file-size required): "
                    + detail);
        }
    }

    private static Optional<String> fileProperty(StepSpec s, String key) {
        return s.group(FILE_GROUP).stream().filter(e -> e.getKey().equals(key)).map(Map.Entry::getValue)
                .filter(v -> !v.isBlank()).findFirst();
    }

    private static Action java(String prefix, String main, List<String> args) {
        return new Action.Java(prefix, main, args, false);
    }

    private static Action captured(String prefix, String main, List<String> args) {
        return new Action.Java(prefix, main, args, true);
    }

    private static String output(String node, String key) {
        return "${wf:actionData('" + node + "')['" + key + "']}";
    }

    private static String id(StepSpec s) {
        return String.valueOf(s.processId());
    }

    private static Optional<String> param(StepSpec s, String key) {
        return s.group("param").stream().filter(e -> e.getKey().equals(key)).map(Map.Entry::getValue).findFirst();
    }

    private static Optional<String> first(StepSpec s, String group) {
        return s.group(group).stream().map(Map.Entry::getValue).findFirst();
    }

    private static List<String> values(StepSpec s, String group) {
        return s.group(group).stream().map(Map.Entry::getValue).toList();
    }

    private static List<String> keyValues(StepSpec s, String group) {
        return s.group(group).stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
    }
}
