package io.batchyard.queue.compaction;

import io.batchyard.queue.compaction.merge.MergeHook;
import io.batchyard.queue.compaction.merge.MergeJobClaim;
import io.batchyard.queue.compaction.merge.MergePlan;

/** Test hooks as lambdas, and the "killed worker" they throw. */
final class MergeHooks {

    interface Progress {
        void recordsWritten(MergeJobClaim claim, MergePlan plan, long written);
    }

    interface Written {
        void objectWritten(MergeJobClaim claim, MergePlan plan);
    }

    /** Thrown by a hook to stand for the worker's process dying: not an Exception, so the worker does not clean up. */
    static final class Killed extends Error {
        Killed() {
            super("worker killed mid-merge", null, false, false);
        }
    }

    private MergeHooks() {
    }

    static MergeHook onProgress(Progress progress) {
        return new MergeHook() {
            @Override
            public void recordsWritten(MergeJobClaim claim, MergePlan plan, long written) {
                progress.recordsWritten(claim, plan, written);
            }
        };
    }

    static MergeHook onWritten(Written written) {
        return new MergeHook() {
            @Override
            public void objectWritten(MergeJobClaim claim, MergePlan plan) {
                written.objectWritten(claim, plan);
            }
        };
    }

    /** Dies at the first progress report: part of the output written, nothing committed. */
    static MergeHook crashAfterFirstProgress() {
        return onProgress((claim, plan, written) -> {
            throw new Killed();
        });
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
