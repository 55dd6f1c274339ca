package io.batchyard.persistence;

import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * The two crossings between blocking and reactive code, for every service. Blocking work inside a reactive use case
 * (a script, a file, a parser, a synchronous call) runs on a worker thread, and the use case resumes on its own Vert.x
 * context, where its Hibernate Reactive session and transaction live. Blocking code (threads that wait for OS
 * processes or do file I/O) calls a reactive service and waits for it. An event-loop thread never waits.
 */
public final class Blocking {

    private Blocking() {
    }

    /** Runs {@code work} on a worker thread and resumes on the caller's context (inline when there is none). */
    public static <T> Uni<T> blocking(Callable<T> work) {
        return Uni.createFrom().deferred(() -> {
            Context context = Vertx.currentContext();
            if (context == null) {
                return Uni.createFrom().item(() -> call(work));
            }
            return Uni.createFrom().completionStage(() -> context.<T>executeBlocking(work, false).toCompletionStage());
        });
    }

    /**
     * Runs {@code service} on a fresh Vert.x context and waits for it; only for threads that may block. A refusal
     * ({@link RuntimeException}) arrives as itself, so blocking callers catch the same exceptions as before.
     */
    public static <T> T await(Supplier<Uni<T>> service) {
        try {
            return VertxContextSupport.subscribeAndAwait(service);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> T call(Callable<T> work) {
        try {
            return work.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
