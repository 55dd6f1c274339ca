package io.batchyard.eventing;

import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;

/**
 * Who the work on the current Vert.x context is done for: the subject of the HTTP call, of the command, or of the
 * event being consumed. {@link Outbox} stamps it into the header of every event it appends, so that events carry
 * their actor without every producer passing it along.
 *
 * <p>Kept in the duplicated context's locals: each request and each consumed record gets a context of its own, and
 * the whole reactive chain of one (Hibernate Reactive included) stays on it. Outside such a context there is no
 * actor.
 */
public final class Actor {

    private static final String KEY = "batchyard.actor";

    private Actor() {
    }

    public static void set(String subject) {
        if (subject != null && VertxContext.isOnDuplicatedContext()) {
            ContextLocals.put(KEY, subject);
        }
    }

    /** The current actor, or null. */
    public static String current() {
        return VertxContext.isOnDuplicatedContext() ? ContextLocals.<String>get(KEY).orElse(null) : null;
    }
}
