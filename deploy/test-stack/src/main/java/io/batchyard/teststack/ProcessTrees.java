package io.batchyard.teststack;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.batchyard.events.ProcessDeadlines;
import io.batchyard.events.ProcessDefinition;
import io.batchyard.events.ProcessProperty;
import io.batchyard.events.ProcessServer;
import io.batchyard.events.registry.ApplicationChanged;
import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Builds process trees the way registry-service announces them, for services whose tests need definitions in their
 * read model without running the registry:
 *
 * <pre>{@code
 * ProcessTrees.parent(123).step(124, s -> s.enqueuedBy(85).next(125)).step(125, s -> s.enqueuedBy(85).cut("EOD").next(123))
 *     .publish(publisher);
 * }</pre>
 */
public final class ProcessTrees {

    private final ProcessDefinition.Builder parent;
    private final List<ProcessDefinition> steps = new ArrayList<>();
    private long applicationId = 1;

    private ProcessTrees(long parentId) {
        parent = base(parentId, null, 1, 1);
    }

    public static ProcessTrees parent(long parentId) {
        return new ProcessTrees(parentId);
    }

    /** The parent's first step(s). */
    public ProcessTrees next(long... ids) {
        parent.setNextProcessIds(list(ids));
        return this;
    }

    /** The parent's workflow type: 1 Oozie (default), 2 stand alone (run by execution-service's runner). */
    public ProcessTrees workflowType(int workflowTypeId) {
        parent.setWorkflowTypeId(workflowTypeId);
        return this;
    }

    /** The parent's process type (default 1); it names e.g. the parent's deployment script. */
    public ProcessTrees processType(int processTypeId) {
        parent.setProcessTypeId(processTypeId);
        return this;
    }

    public ProcessTrees property(String group, String key, String value) {
        addProperty(parent, group, key, value);
        return this;
    }

    /** The server the parent names, as registry-service announces it (port may be null). */
    public ProcessTrees server(long serverId, String name, String type, String host, Integer port) {
        parent.setServer(serverOf(serverId, name, type, host, port));
        return this;
    }

    /**
     * The parent's data deadlines as registry-service announces them: a grain (hour, day, week, month) or a cron
     * schedule in {@code zone}, and ISO-8601 offsets from the bucket's end (null: no such deadline).
     */
    public ProcessTrees deadlines(String grain, String cron, String zone, String startBy, String finishBy,
                                  String maxRuntime) {
        parent.setDeadlines(ProcessDeadlines.newBuilder().setGrain(grain).setCron(cron).setZone(zone)
                .setStartBy(startBy).setFinishBy(finishBy).setMaxRuntime(maxRuntime).build());
        return this;
    }

    /** The parent without data deadlines (how the registry announces their removal). */
    public ProcessTrees withoutDeadlines() {
        parent.setDeadlines(null);
        return this;
    }

    public ProcessTrees step(long stepId, java.util.function.Consumer<Step> configure) {
        Step s = new Step(base(stepId, parent.getProcessId(), 12, 0));
        configure.accept(s);
        steps.add(s.builder.build());
        return this;
    }

    /** Puts the tree in application {@code applicationId} (default 1, the seeded application). */
    public ProcessTrees application(long applicationId) {
        this.applicationId = applicationId;
        return this;
    }

    /** Announces an application's permissions as registry-service does (types 0, 4, 6 or 7). */
    public static ApplicationChanged application(long applicationId, String ownerUser, String ownerGroup, int owner,
                                                 int group, int others) {
        return ApplicationChanged.newBuilder().setHeader(Events.header("test", null, null))
                .setApplicationId(applicationId).setName("app-" + applicationId)
                .setOwnerUser(ownerUser).setOwnerGroup(ownerGroup)
                .setOwnerPermission(owner).setGroupPermission(group).setOthersPermission(others).setDeleted(false)
                .build();
    }

    public ProcessRegistered event() {
        parent.setBusDomainId(applicationId);
        steps.forEach(s -> s.setBusDomainId(applicationId));
        List<Long> changed = new ArrayList<>();
        changed.add(parent.getProcessId());
        steps.forEach(s -> changed.add(s.getProcessId()));
        return ProcessRegistered.newBuilder()
                .setHeader(Events.header("test", null, null))
                .setParentProcessId(parent.getProcessId())
                .setChangedProcessIds(changed)
                .setParent(parent.build())
                .setSteps(steps)
                .build();
    }

    public ProcessRegistered publish(EventPublisher publisher) {
        ProcessRegistered event = event();
        publisher.publish(Topics.REGISTRY_PROCESSES, event.getParentProcessId(), event);
        return event;
    }

    /**
     * Publishes the tree, then waits until the service under test (RestAssured's default address, which a
     * {@code @QuarkusTest} points at its application) answers {@code GET /process-definitions/<id>} for every process
     * of it, so that a test's first call does not race that service's read-model consumer.
     */
    public ProcessRegistered register(EventPublisher publisher, Duration wait) {
        ProcessRegistered event = publish(publisher);
        await().atMost(wait).until(() -> event.getChangedProcessIds().stream()
                .allMatch(id -> given().get("/process-definitions/" + id).statusCode() == 200));
        return event;
    }

    /** Configures one step. */
    public static final class Step {
        private final ProcessDefinition.Builder builder;

        private Step(ProcessDefinition.Builder builder) {
            this.builder = builder;
        }

        public Step enqueuedBy(long... parents) {
            builder.setEnqueuingProcessIds(list(parents));
            return this;
        }

        public Step cut(String pattern) {
            builder.setBatchCutPattern(pattern);
            return this;
        }

        public Step next(long... ids) {
            builder.setNextProcessIds(list(ids));
            return this;
        }

        public Step canRecover(boolean canRecover) {
            builder.setCanRecover(canRecover);
            return this;
        }

        public Step property(String group, String key, String value) {
            addProperty(builder, group, key, value);
            return this;
        }

        /** The server the step names, as registry-service announces it (port may be null). */
        public Step server(long serverId, String name, String type, String host, Integer port) {
            builder.setServer(serverOf(serverId, name, type, host, port));
            return this;
        }

        public Step deleted() {
            builder.setDeleted(true);
            return this;
        }
    }

    private static ProcessServer serverOf(long serverId, String name, String type, String host, Integer port) {
        return ProcessServer.newBuilder().setServerId(serverId).setName(name).setType(type).setHost(host)
                .setPort(port).build();
    }

    private static void addProperty(ProcessDefinition.Builder builder, String group, String key, String value) {
        List<ProcessProperty> props = new ArrayList<>(builder.getProperties());
        props.add(new ProcessProperty(group, key, value));
        builder.setProperties(props);
    }

    private static ProcessDefinition.Builder base(long id, Long parentId, int type, int workflowType) {
        return ProcessDefinition.newBuilder()
                .setProcessId(id).setProcessName("p" + id).setDescription("test process " + id)
                .setBusDomainId(1).setProcessTypeId(type).setParentProcessId(parentId).setCanRecover(true)
                .setEnqueuingProcessIds(List.of()).setBatchCutPattern(null).setNextProcessIds(List.of())
                .setDeleted(false).setWorkflowTypeId(workflowType).setProcessTemplateId(null)
                .setProcessCode(UUID.randomUUID().toString()).setProperties(List.of());
    }

    private static List<Long> list(long... ids) {
        List<Long> out = new ArrayList<>();
        for (long id : ids) {
            out.add(id);
        }
        return out;
    }
}
