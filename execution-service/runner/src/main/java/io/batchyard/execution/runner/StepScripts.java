package io.batchyard.execution.runner;

import io.batchyard.readmodel.ProcessDefinitionRepository;
import java.util.ArrayList;
import java.util.List;

/**
 * What the runner requires of a stand-alone parent's steps before any of them runs: a step graph it can walk, and
 * for every step one script (and its loop script) named as the runner accepts names. A launch checks this before
 * InitJob; a deployment without a script of its own checks it too, and also that every script is there.
 */
public final class StepScripts {

    private StepScripts() {
    }

    /**
     * The parent's step graph once every step names a script the runner would run.
     *
     * @throws IllegalArgumentException for a graph that cannot be run, a step without exactly one script, or a
     *                                  refused script name ({@link ScriptResolver.Refused}, problem 410/411)
     */
    public static StepGraph checked(ProcessDefinitionRepository.Tree tree, ScriptRunner scripts) {
        StepGraph graph = new StepGraph(tree.parent(), tree.steps());
        // A refused script stops the run before InitJob: no step of it runs, not even a harmless one.
        for (var step : tree.steps()) {
            StepCommand command = StepCommand.of(step);
            scripts.check(command.script());
            if (command.loopScript() != null) {
                scripts.check(command.loopScript());
            }
        }
        return graph;
    }

    /**
     * The scripts of the graph's steps that are not in the script directory, as {@code step <id>: 'name'}; with
     * {@code stepScriptsHere} false (the steps run in images of their own) only the loop scripts, which run here.
     */
    public static List<String> absent(StepGraph graph, ScriptRunner scripts, boolean stepScriptsHere) {
        List<String> absent = new ArrayList<>();
        for (var step : graph.steps()) {
            StepCommand command = StepCommand.of(step);
            if (stepScriptsHere && !scripts.exists(command.script())) {
                absent.add("step " + step.processId() + ": '" + command.script() + "'");
            }
            if (command.loopScript() != null && !scripts.exists(command.loopScript())) {
                absent.add("step " + step.processId() + " (loop script): '" + command.loopScript() + "'");
            }
        }
        return absent;
    }
}
