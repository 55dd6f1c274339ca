package io.batchyard.registry.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.api.ApiException;
import io.batchyard.registry.catalog.ProcessType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** The tree rules on their own, without a database. */
class ProcessRulesTest {

    private static final Map<Integer, ProcessType> TYPES = Map.of(
            1, new ProcessType(1, "ingestion", null),
            2, new ProcessType(2, "Semantic", null),
            12, new ProcessType(12, "SFTP", 1),
            9, new ProcessType(9, "Hive Action", 2));

    private final Map<Long, ProcessRow> rows = new HashMap<>();

    @Test
    void aParentNeedsAParentLevelType() {
        assertCode(() -> validate(draft(null, null, 12, List.of(), List.of()), List.of()), 202)
                .hasMessageContaining("SFTP process type is not applicable for parent processes");
        assertThatCode(() -> validate(draft(null, null, 1, List.of(), List.of()), List.of())).doesNotThrowAnyException();
    }

    @Test
    void aStepNeedsAStepTypeWhoseParentTypeMatchesItsParent() {
        ProcessRow parent = row(10, null, 1, List.of(), List.of());
        assertCode(() -> validate(draft(null, 10L, 2, List.of(), List.of()), List.of()), 203)
                .hasMessageContaining("is not applicable for sub processes").hasMessageContaining("parent 10");
        assertCode(() -> validate(draft(null, 10L, 9, List.of(), List.of()), List.of()), 204)
                .hasMessageContaining("should have a parent with process type=2 but it set parent proces type=1");
        assertThat(parent.isParent()).isTrue();
    }

    @Test
    void aStepsParentMustBeALiveParent() {
        row(10, null, 1, List.of(), List.of());
        row(11, 10L, 12, List.of(), List.of());
        assertCode(() -> validate(draft(null, 11L, 12, List.of(), List.of()), List.of()), 205);
        assertCode(() -> validate(draft(null, 99L, 12, List.of(), List.of()), List.of()), 205);
    }

    @Test
    void enqueuingProcessesMustBeLiveParentsOtherThanTheOwnParent() {
        row(10, null, 1, List.of(), List.of());
        row(20, null, 1, List.of(), List.of());
        row(21, 20L, 12, List.of(), List.of());
        assertThatCode(() -> validate(draft(null, 10L, 12, List.of(20L), List.of()), List.of()))
                .doesNotThrowAnyException();
        assertCode(() -> validate(draft(null, 10L, 12, List.of(21L), List.of()), List.of()), 206)
                .hasMessageContaining("must be a parent process");
        assertCode(() -> validate(draft(null, 10L, 12, List.of(77L), List.of()), List.of()), 206);
        assertCode(() -> validate(draft(null, 10L, 12, List.of(20L, 20L), List.of()), List.of()), 206);
        assertCode(() -> validate(draft(null, 10L, 12, List.of(10L), List.of()), List.of()), 208);
    }

    @Test
    void enqueuingThatClosesAJobLevelLoopIsACycle() {
        row(10, null, 1, List.of(), List.of());
        row(20, null, 1, List.of(), List.of());
        // 20 already consumes 10's output (upstream of 20 = {10}); 10 consuming 20's would loop.
        ProcessRules.Context ctx = context(Optional.of(rows.get(10L)), List.of(), id -> id == 20L ? Set.of(10L) : Set.of());
        assertCode(() -> ProcessRules.validate(draft(null, 10L, 12, List.of(20L), List.of()), ctx), 208);
    }

    @Test
    void onlyStepsCarryEnqueuersAndCutPatterns() {
        row(20, null, 1, List.of(), List.of());
        assertCode(() -> validate(draft(null, null, 1, List.of(20L), List.of()), List.of()), 209);
        ProcessDraft withPattern = new ProcessDraft(null, "p", "d", 1, 1, null, true, List.of(), "EOD", List.of(), 1, null);
        assertCode(() -> validate(withPattern, List.of()), 209);
    }

    @Test
    void blankCutPatternIsNoPattern() {
        ProcessDraft d = new ProcessDraft(null, "p", "d", 1, 1, null, true, List.of(), "  ", List.of(), 1, null);
        assertThat(d.batchCutPattern()).isNull();
    }

    @Test
    void nextProcessesAreStepsOfTheSameParentOrTheParentItself() {
        row(10, null, 1, List.of(), List.of());
        ProcessRow s1 = row(11, 10L, 12, List.of(), List.of());
        row(30, null, 1, List.of(), List.of());
        ProcessRow other = row(31, 30L, 12, List.of(), List.of());
        List<ProcessRow> tree = List.of(s1);
        assertThatCode(() -> validate(draft(null, 10L, 12, List.of(), List.of(11L)), tree)).doesNotThrowAnyException();
        assertThatCode(() -> validate(draft(null, 10L, 12, List.of(), List.of(10L)), tree)).doesNotThrowAnyException();
        assertCode(() -> validate(draft(null, 10L, 12, List.of(), List.of(31L)), tree), 207);
        assertCode(() -> validate(draft(null, 10L, 12, List.of(), List.of(30L)), tree), 207);
        assertCode(() -> validate(draft(null, 10L, 12, List.of(), List.of(404L)), tree), 207);
        assertCode(() -> validate(draft(11L, 10L, 12, List.of(), List.of(11L)), tree), 208);
        // a parent's next processes are its first steps, never itself or another tree's steps
        assertThatCode(() -> validate(draft(10L, null, 1, List.of(), List.of(11L)), tree)).doesNotThrowAnyException();
        assertCode(() -> validate(draft(10L, null, 1, List.of(), List.of(other.processId())), tree), 207);
    }

    @Test
    void aLoopAmongStepsIsRejectedWithItsPath() {
        row(10, null, 1, List.of(), List.of());
        ProcessRow s1 = row(11, 10L, 12, List.of(), List.of(12L));
        ProcessRow s2 = row(12, 10L, 12, List.of(), List.of(13L));
        ProcessRow s3 = row(13, 10L, 12, List.of(), List.of(10L));
        List<ProcessRow> tree = List.of(s1, s2, s3);
        assertCode(() -> validate(draft(13L, 10L, 12, List.of(), List.of(11L)), tree), 208)
                .hasMessageContaining("11 -> 12 -> 13 -> 11");
        // a diamond is not a cycle
        assertThat(ProcessRules.findStepCycle(draft(11L, 10L, 12, List.of(), List.of(12L, 13L)),
                List.of(s1, row(12, 10L, 12, List.of(), List.of(13L)), s3), 10L)).isEmpty();
    }

    @Test
    void changingAParentsTypeMustKeepItsStepsValid() {
        ProcessRow parent = row(10, null, 1, List.of(), List.of());
        ProcessRow step = row(11, 10L, 12, List.of(), List.of());
        assertCode(() -> validate(draft(10L, null, 2, List.of(), List.of()), List.of(step)), 204);
        assertThat(parent.processTypeId()).isEqualTo(1);
    }

    private void validate(ProcessDraft draft, List<ProcessRow> tree) {
        Optional<ProcessRow> parent = draft.parentProcessId() == null ? Optional.empty()
                : Optional.ofNullable(rows.get(draft.parentProcessId()));
        ProcessRules.validate(draft, context(parent, tree, id -> Set.of()));
    }

    private ProcessRules.Context context(Optional<ProcessRow> parent, List<ProcessRow> tree,
                                         java.util.function.Function<Long, Set<Long>> upstream) {
        return new ProcessRules.Context(TYPES, parent, tree, id -> Optional.ofNullable(rows.get(id)), upstream);
    }

    private static ProcessDraft draft(Long id, Long parent, int type, List<Long> enqueuers, List<Long> next) {
        return new ProcessDraft(id, "p", "d", 1, type, parent, true, enqueuers, null, next, parent == null ? 1 : 0, null);
    }

    private ProcessRow row(long id, Long parent, int type, List<Long> enqueuers, List<Long> next) {
        ProcessRow r = new ProcessRow(id, "p" + id, "d", 1, type, parent, true, enqueuers, null, next, false,
                parent == null ? 1 : 0, null, UUID.randomUUID(), 0, null, null);
        rows.put(id, r);
        return r;
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertCode(Runnable call, int code) {
        return assertThatThrownBy(call::run).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).as(e.getMessage()).isEqualTo(code));
    }
}
