package io.batchyard.dashboard.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.events.EventHeader;
import io.batchyard.events.ProcessDefinition;
import io.batchyard.events.lineage.LineageParsed;
import io.batchyard.events.registry.ApplicationChanged;
import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.events.queue.BatchesArchived;
import io.batchyard.api.access.Caller;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DashboardViewTest {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
    private final DashboardView view = new DashboardView();

    @Test
    void aRunIsShownWithItsStepsWhileItRunsAndAmongTheFinishedAfter() {
        view.apply(JobStarted.newBuilder().setHeader(h(0, "ana")).setProcessId(10).setInstanceExecId(1)
                .setTargetBatchId(100).setTargetBatchMarking("m").setLastRecoverableSpId(null).setRetry(false).build());
        view.apply(StepStarted.newBuilder().setHeader(h(1, null)).setParentProcessId(10).setSubProcessId(11)
                .setSubInstanceExecId(2).setParentInstanceExecId(1).setTargetBatchId(100L).build());
        var running = view.snapshot().running();
        assertThat(running).singleElement().satisfies(r -> {
            assertThat(r.state()).isEqualTo("running");
            assertThat(r.steps()).extracting(DashboardView.Step::state).containsExactly("running");
        });
        view.apply(StepHalted.newBuilder().setHeader(h(2, null)).setParentProcessId(10).setSubProcessId(11)
                .setSubInstanceExecId(2).setParentInstanceExecId(1).setTargetBatchId(100L).build());
        view.apply(JobHalted.newBuilder().setHeader(h(3, null)).setProcessId(10).setInstanceExecId(1)
                .setTargetBatchId(100).setBatchMarking("m").build());

        var snapshot = view.snapshot();
        assertThat(snapshot.running()).isEmpty();
        assertThat(snapshot.finished()).singleElement().satisfies(r -> {
            assertThat(r.state()).isEqualTo("halted");
            assertThat(r.durationMs()).isEqualTo(3_000);
            assertThat(r.actor()).isEqualTo("ana");
            assertThat(r.steps()).extracting(DashboardView.Step::state).containsExactly("halted");
        });
        assertThat(snapshot.flow()).extracting(DashboardView.FlowLine::type)
                .containsExactly("JobHalted", "StepHalted", "StepStarted", "JobStarted");
    }

    @Test
    void aQueueCountsItsBatchesTheFanOutLatencyAndStandsOutWhenItOnlyGrows() {
        view.apply(JobHalted.newBuilder().setHeader(h(0, null)).setProcessId(10).setInstanceExecId(1)
                .setTargetBatchId(100).setBatchMarking(null).build());
        for (long batch = 100; batch < 103; batch++) {
            view.apply(BatchEnqueued.newBuilder().setHeader(h(batch == 100 ? 0.25 : 5, null)).setQueueId(batch)
                    .setSourceBatchId(batch).setSourceProcessId(10L).setConsumerProcessId(21).setBatchMarking(null).build());
        }
        DashboardView.Queue queue = view.snapshot().queues().get(0);
        assertThat(queue.queued()).isEqualTo(3);
        assertThat(queue.lastFanOutMs()).isEqualTo(250);
        assertThat(queue.onlyGrowing()).isTrue();

        view.apply(StepStarted.newBuilder().setHeader(h(6, null)).setParentProcessId(20).setSubProcessId(21)
                .setSubInstanceExecId(8).setParentInstanceExecId(7).setTargetBatchId(null).build());
        view.apply(BatchesArchived.newBuilder().setHeader(h(7, null)).setParentProcessId(20).setTargetBatchId(200)
                .setSourceBatchIds(List.of(100L, 101L)).build());
        queue = view.snapshot().queues().get(0);
        assertThat(queue.queued()).isEqualTo(1);
        assertThat(queue.consumedTotal()).isEqualTo(2);
        assertThat(queue.onlyGrowing()).isFalse();
    }

    @Test
    void aFailedRunIsFinishedAsFailedAndTheViewStaysBounded() {
        for (long i = 0; i < DashboardView.MAX_RUNNING + 20; i++) {
            view.apply(JobStarted.newBuilder().setHeader(h(i, null)).setProcessId(10).setInstanceExecId(i)
                    .setTargetBatchId(i).setTargetBatchMarking("m").setLastRecoverableSpId(null).setRetry(false).build());
        }
        view.apply(JobFailed.newBuilder().setHeader(h(1_000, null)).setProcessId(10)
                .setInstanceExecId(DashboardView.MAX_RUNNING + 19).setTargetBatchId(null).build());
        var snapshot = view.snapshot();
        assertThat(snapshot.running()).hasSize(DashboardView.MAX_RUNNING - 1);
        assertThat(snapshot.finished()).singleElement().extracting(DashboardView.Run::state).isEqualTo("failed");
        assertThat(snapshot.flow()).hasSize(DashboardView.MAX_FLOW);
        assertThat(snapshot.version()).isEqualTo(DashboardView.MAX_RUNNING + 21);
    }

    @Test
    void aFailedRunShowsTheCodeAndTextItsTermJobGave() {
        view.apply(JobStarted.newBuilder().setHeader(h(0, null)).setProcessId(10).setInstanceExecId(1)
                .setTargetBatchId(100).setTargetBatchMarking("m").setLastRecoverableSpId(null).setRetry(false).build());
        view.apply(JobFailed.newBuilder().setHeader(h(2, null)).setProcessId(10).setInstanceExecId(1)
                .setTargetBatchId(100L).setErrorCode(3).setErrorText("step 11 (load.sh) exited with code 3").build());
        DashboardView.Run failed = view.snapshot().finished().get(0);
        assertThat(failed.errorCode()).isEqualTo(3);
        assertThat(failed.errorText()).isEqualTo("step 11 (load.sh) exited with code 3");
        assertThat(view.snapshot().flow().get(0).text()).isEqualTo("run 1 failed, code 3: step 11 (load.sh) exited with code 3");
    }

    @Test
    void namesApplicationsStandAloneParentsAndTablesComeFromTheRegistryAndLineageTopics() {
        view.apply(ApplicationChanged.newBuilder().setHeader(h(0, null)).setApplicationId(7).setName("sales")
                .setOwnerUser("ana").setOwnerGroup(null).setOwnerPermission(7).setGroupPermission(4)
                .setOthersPermission(0).setDeleted(false).build());
        view.apply(ProcessRegistered.newBuilder().setHeader(h(0, null)).setParentProcessId(10)
                .setChangedProcessIds(List.of(10L, 11L)).setParent(process(10, "daily-load", null, 2))
                .setSteps(List.of(process(11, "load-step", 10L, 2))).build());
        view.apply(ProcessRegistered.newBuilder().setHeader(h(0, null)).setParentProcessId(20)
                .setChangedProcessIds(List.of(20L)).setParent(process(20, "oozie-job", null, 1)).setSteps(List.of()).build());
        view.apply(LineageParsed.newBuilder().setHeader(h(0, null)).setQueryId(UUID.randomUUID().toString())
                .setProcessId(11).setParseStatus("PARSED").setParseError(null).setInputTables(List.of("raw.orders"))
                .setOutputTables(List.of("mart.daily_sales")).setRelationCount(4).build());
        view.apply(JobStarted.newBuilder().setHeader(h(1, null)).setProcessId(10).setInstanceExecId(1)
                .setTargetBatchId(100).setTargetBatchMarking("m").setLastRecoverableSpId(null).setRetry(false).build());

        var snapshot = view.snapshot();
        assertThat(snapshot.applications()).containsExactly(new Directory.Application(7, "sales"));
        assertThat(snapshot.parents()).containsExactly(
                new Directory.Parent(20, "oozie-job", 7, false, List.of()),
                new Directory.Parent(10, "daily-load", 7, true, List.of("mart.daily_sales", "raw.orders")));
        assertThat(snapshot.running()).singleElement().satisfies(r -> {
            assertThat(r.processName()).isEqualTo("daily-load");
            assertThat(r.applicationId()).isEqualTo(7L);
        });
        assertThat(snapshot.flow()).singleElement().extracting(DashboardView.FlowLine::applicationId).isEqualTo(7L);

        view.apply(ProcessDeleted.newBuilder().setHeader(h(2, null)).setParentProcessId(20)
                .setDeletedProcessIds(List.of(20L)).build());
        assertThat(view.snapshot().parents()).extracting(Directory.Parent::processId).containsExactly(10L);
    }

    /**
     * Each viewer sees the rows of the processes whose application they may read (a step's by its parent's); an
     * application whose permissions were never announced, or a process the registry never named, is an
     * administrator's only.
     */
    @Test
    void aViewerSeesOnlyTheRowsOfApplicationsTheyMayRead() {
        view.apply(application(7, "sales", "ana", "sales-team", 7, 4, 0));
        view.apply(application(8, "finance", "bob", null, 7, 0, 0));
        view.apply(ProcessRegistered.newBuilder().setHeader(h(0, null)).setParentProcessId(10)
                .setChangedProcessIds(List.of(10L, 11L)).setParent(process(10, "sales-load", null, 2, 7))
                .setSteps(List.of(process(11, "sales-step", 10L, 2, 8))).build());
        view.apply(ProcessRegistered.newBuilder().setHeader(h(0, null)).setParentProcessId(20)
                .setChangedProcessIds(List.of(20L, 21L)).setParent(process(20, "ledger", null, 2, 8))
                .setSteps(List.of(process(21, "ledger-step", 20L, 2, 8))).build());
        view.apply(ProcessRegistered.newBuilder().setHeader(h(0, null)).setParentProcessId(30)
                .setChangedProcessIds(List.of(30L)).setParent(process(30, "secret", null, 2, 9)).setSteps(List.of())
                .build());
        for (long job : new long[] {10, 20, 30, 40}) {
            view.apply(JobStarted.newBuilder().setHeader(h(1, null)).setProcessId(job).setInstanceExecId(job + 1)
                    .setTargetBatchId(job * 10).setTargetBatchMarking("m").setLastRecoverableSpId(null)
                    .setRetry(false).build());
        }
        view.apply(JobHalted.newBuilder().setHeader(h(2, null)).setProcessId(20).setInstanceExecId(21)
                .setTargetBatchId(200).setBatchMarking(null).build());
        // Team finance's batch goes to team sales' step, and the other way round.
        view.apply(BatchEnqueued.newBuilder().setHeader(h(3, null)).setQueueId(1).setSourceBatchId(200)
                .setSourceProcessId(20L).setConsumerProcessId(11).setBatchMarking(null).build());
        view.apply(BatchEnqueued.newBuilder().setHeader(h(3, null)).setQueueId(2).setSourceBatchId(100)
                .setSourceProcessId(10L).setConsumerProcessId(21).setBatchMarking(null).build());

        DashboardView.Snapshot ana = view.snapshot(new Caller("ana", Set.of(), false));
        assertThat(ana.running()).extracting(DashboardView.Run::processId).containsExactly(10L);
        assertThat(ana.finished()).isEmpty();
        // The step belongs to its parent's application, whatever the registry said of the step itself.
        assertThat(ana.queues()).extracting(DashboardView.Queue::consumerProcessId).containsExactly(11L);
        assertThat(ana.queues()).extracting(DashboardView.Queue::parentProcessId).as("whose trigger the panel asks")
                .containsExactly(10L);
        assertThat(ana.flow()).extracting(DashboardView.FlowLine::processId).containsOnly(10L, 11L);
        assertThat(ana.applications()).extracting(Directory.Application::name).containsExactly("sales");
        assertThat(ana.parents()).extracting(Directory.Parent::processId).containsExactly(10L);

        DashboardView.Snapshot bob = view.snapshot(new Caller("bob", Set.of(), false));
        assertThat(bob.running()).isEmpty();
        assertThat(bob.finished()).extracting(DashboardView.Run::processId).containsExactly(20L);
        assertThat(bob.queues()).extracting(DashboardView.Queue::consumerProcessId).containsExactly(21L);
        assertThat(bob.flow()).extracting(DashboardView.FlowLine::processId).containsOnly(20L, 21L);
        assertThat(bob.parents()).extracting(Directory.Parent::processId).containsExactly(20L);

        DashboardView.Snapshot member = view.snapshot(new Caller("cleo", Set.of("sales-team"), false));
        assertThat(member.running()).extracting(DashboardView.Run::processId).containsExactly(10L);
        DashboardView.Snapshot stranger = view.snapshot(new Caller("dan", Set.of(), false));
        assertThat(stranger.running()).isEmpty();
        assertThat(stranger.queues()).isEmpty();
        assertThat(stranger.flow()).isEmpty();
        assertThat(stranger.applications()).isEmpty();

        DashboardView.Snapshot admin = view.snapshot(new Caller("root", Set.of(), true));
        assertThat(admin.running()).extracting(DashboardView.Run::processId).containsExactlyInAnyOrder(10L, 30L, 40L);
        assertThat(admin).isSameAs(view.snapshot());

        // Sales closes its application to the group: the member's rows go with the next snapshot.
        view.apply(application(7, "sales", "ana", "sales-team", 7, 0, 0));
        assertThat(view.snapshot(new Caller("cleo", Set.of("sales-team"), false)).running()).isEmpty();
        view.apply(ApplicationChanged.newBuilder(application(7, "sales", "ana", null, 7, 0, 0)).setDeleted(true)
                .build());
        assertThat(view.snapshot(new Caller("ana", Set.of(), false)).running()).isEmpty();
    }

    private static ApplicationChanged application(long id, String name, String owner, String group, int ownerType,
                                                  int groupType, int othersType) {
        return ApplicationChanged.newBuilder().setHeader(h(0, null)).setApplicationId(id).setName(name)
                .setOwnerUser(owner).setOwnerGroup(group).setOwnerPermission(ownerType)
                .setGroupPermission(groupType).setOthersPermission(othersType).setDeleted(false).build();
    }

    private static ProcessDefinition process(long id, String name, Long parent, int workflowType) {
        return process(id, name, parent, workflowType, 7);
    }

    private static ProcessDefinition process(long id, String name, Long parent, int workflowType, long application) {
        return ProcessDefinition.newBuilder().setProcessId(id).setProcessName(name).setDescription(name)
                .setBusDomainId(application).setProcessTypeId(parent == null ? 1 : 2).setParentProcessId(parent)
                .setCanRecover(true)
                .setEnqueuingProcessIds(List.of()).setBatchCutPattern(null).setNextProcessIds(List.of()).setDeleted(false)
                .setWorkflowTypeId(workflowType).setProcessTemplateId(null).setProcessCode(name).setProperties(List.of())
                .build();
    }

    private static EventHeader h(double seconds, String actor) {
        return EventHeader.newBuilder().setEventId(UUID.randomUUID().toString())
                .setOccurredAt(T0.plusMillis((long) (seconds * 1000))).setProducer("test").setSchemaVersion(1)
                .setInstanceExecId(null).setCorrelationId(null).setActor(actor).build();
    }
}
