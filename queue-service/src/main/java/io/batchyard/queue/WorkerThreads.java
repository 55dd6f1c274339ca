package io.batchyard.queue;

import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * The bridge between code that must block (file I/O loops of the merge workers, the catalog and GC threads) and the
 * reactive services: a worker thread waits for a service's {@link Uni} on a Vert.x context of its own, and an event
 * loop hands blocking work to a worker thread. Never await on an event loop.
 */
public final class WorkerThreads {

    private WorkerThreads() {
    }

    /** Runs {@code service} on a fresh Vert.x context and waits for its item; call from a worker thread only. */
    public static <T> T await(Supplier<Uni<T>> service) {
        try {
            return VertxContextSupport.subscribeAndAwait(service);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Blocking work inside a reactive chain: runs on a worker thread and resumes on the caller's context. */
    public static <T> Uni<T> blocking(Callable<T> work) {
        return VertxContextSupport.executeBlocking(work);
    }
}
