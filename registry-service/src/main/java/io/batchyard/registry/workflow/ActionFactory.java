package io.batchyard.registry.workflow;

import io.batchyard.registry.RegistryError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Maps a step's process type and properties to the action(s) it runs (spec 4.3). */
public final class ActionFactory {

    static final int MAP_REDUCE = 11;
    static final int HIVE = 9;
    static final int PIG = 10;
    static final int SHELL = 22;
    static final int SPARK = 25;

    List<Node> actionsFor(StepSpec s) {
        Action action = switch (s.processTypeId()) {
            case SHELL -> shell(s);
            case HIVE -> new Action.Hive(first(s, "query").orElse("hql/query" + s.processId() + ".hql"), keyValues(s, "param"));
            case PIG -> new Action.Pig(first(s, "script").orElse("pig/script" + s.processId() + ".pig"), keyValues(s, "param"));
            case MAP_REDUCE -> new Action.Java("mapreduce", first(s, "program").orElse("JavaMainClass" + s.processId()),
                    values(s, "param"));
            case SPARK -> spark(s);
            default -> throw RegistryError.WORKFLOW_SHAPE.exception(
                    "Don't know how to handle processInfo.getProcessTypeId()=" + s.processTypeId()
                            + " (step " + s.processId() + ")");
        };
        Node node = new Node(action.prefix() + "-" + s.processId() + "-" + s.name().replace(' ', '_'), Node.Kind.ACTION,
                List.of(s.processId()));
        node.action = action;
        return List.of(node);
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
        return new Action.Shell(script.startsWith("shell/") ? script.substring("shell/".length()) : script,
                values(s, "param"), files);
    }

    private static Action spark(StepSpec s) {
        List<String> args = new ArrayList<>();
        args.add("--class");
        args.add(first(s, "program").orElse("SparkMainClass" + s.processId()));
        args.add("--master");
        args.add("yarn");
        args.add(first(s, "script").orElse("spark/app" + s.processId() + ".jar"));
        args.addAll(values(s, "param"));
        return new Action.Java("spark", "org.apache.spark.deploy.SparkSubmit", args);
    }

    private static java.util.Optional<String> first(StepSpec s, String group) {
        return s.group(group).stream().map(Map.Entry::getValue).findFirst();
    }

    private static List<String> values(StepSpec s, String group) {
        return s.group(group).stream().map(Map.Entry::getValue).toList();
    }

    private static List<String> keyValues(StepSpec s, String group) {
        return s.group(group).stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
    }
}
