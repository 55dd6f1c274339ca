package io.batchyard.execution.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.execution.runner.JobSettings;
import io.batchyard.execution.runner.JobSettings.BucketSource;
import io.batchyard.execution.runner.RunnerJob;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pure rules of a group's jobs: bucket source, validation, inheritance from the parent, selection. */
class GroupRulesTest {

    private static RunnerJob parent(boolean batch, Integer maxBatch, List<RunnerJob.Dependency> deps) {
        return new RunnerJob(1, true, "YYYYMMDD", batch, false, maxBatch, false, RunnerJob.Retry.DEFAULT,
                RunnerJob.Context.NONE, 4, 3600, new RunnerJob.Hooks("init.sh", null, null), deps, null);
    }

    private static JobSettings job(BucketSource source, String bucket, String sql, List<RunnerJob.Dependency> deps) {
        return new JobSettings(2, 1, true, source, bucket, sql, deps, RunnerJob.Hooks.NONE);
    }

    @Test
    void theSourceIsTheRuleTheQueryOrTheRunsBucketsNeverBoth() {
        assertThat(GroupRules.source(null, null)).isEqualTo(BucketSource.INHERIT);
        assertThat(GroupRules.source(" ", "")).isEqualTo(BucketSource.INHERIT);
        assertThat(GroupRules.source("PreviousDay", null)).isEqualTo(BucketSource.RULE);
        assertThat(GroupRules.source(null, "SELECT 1")).isEqualTo(BucketSource.SQL);
        assertThatThrownBy(() -> GroupRules.source("YYYYMMDD", "SELECT 1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void settingsAreRefusedForSeveralStatementsASelfDependencyOrAnEmptyDependency() {
        assertThat(GroupRules.whyInvalid(job(BucketSource.SQL, null, "SELECT k FROM t;", null))).isEmpty();
        assertThat(GroupRules.whyInvalid(job(BucketSource.SQL, null, "SELECT 1; DROP TABLE t", null))).isPresent();
        assertThat(GroupRules.whyInvalid(job(BucketSource.SQL, null, "SELECT '" + "x".repeat(4000) + "'", null)))
                .isPresent();
        assertThat(GroupRules.whyInvalid(job(BucketSource.INHERIT, null, null,
                List.of(new RunnerJob.Dependency(2L, null))))).hasValueSatisfying(m -> assertThat(m).contains("itself"));
        assertThat(GroupRules.whyInvalid(job(BucketSource.INHERIT, null, null,
                List.of(new RunnerJob.Dependency(null, " "))))).isPresent();
    }

    @Test
    void aJobInheritsTheParentsRuleAndDependenciesUnlessItHasItsOwn() {
        List<RunnerJob.Dependency> parentDeps = List.of(new RunnerJob.Dependency(9L, null));
        RunnerJob p = parent(false, null, parentDeps);
        RunnerJob inherited = job(BucketSource.INHERIT, null, null, null).asJob(p);
        assertThat(inherited.processId()).isEqualTo(2);
        assertThat(inherited.bucket()).isEqualTo("YYYYMMDD");
        assertThat(inherited.dependencies()).isEqualTo(parentDeps);
        // the parent's hooks run around the whole run; a job has only its own
        assertThat(inherited.hooks()).isEqualTo(RunnerJob.Hooks.NONE);
        RunnerJob own = job(BucketSource.RULE, "PreviousDay", null, List.of()).asJob(p);
        assertThat(own.bucket()).isEqualTo("PreviousDay");
        assertThat(own.dependencies()).isEmpty();
    }

    @Test
    void aJobTakesItsOldestBucketOrWithBatchUpToTheMaximum() {
        List<String> eligible = List.of("K3", "K1", "K2");
        assertThat(GroupRules.select(eligible, parent(false, null, List.of()))).containsExactly("K1");
        assertThat(GroupRules.select(eligible, parent(true, 2, List.of()))).containsExactly("K1", "K2");
        assertThat(GroupRules.select(List.of(), parent(true, null, List.of()))).isEmpty();
    }
}
