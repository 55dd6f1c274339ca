package io.batchyard.dashboard.feed;

import io.batchyard.dashboard.view.DashboardView;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The dashboard is a plain reader of the public topics, decoded through the schema registry like any other tool's
 * would be. Each instance reads them from the beginning in a group of its own (see application.properties), so its
 * view is rebuilt at every start and several instances never split the events between them.
 */
@ApplicationScoped
public class TopicFeed {

    private final DashboardView view;

    public TopicFeed(DashboardView view) {
        this.view = view;
    }

    @Incoming("lifecycle")
    public void lifecycle(SpecificRecord event) {
        if (event != null) {
            view.apply(event);
        }
    }

    @Incoming("batches")
    public void batches(SpecificRecord event) {
        if (event != null) {
            view.apply(event);
        }
    }

    /** The registry's processes and applications: names, applications and which parents are stand-alone. */
    @Incoming("processes")
    public void processes(SpecificRecord event) {
        if (event != null) {
            view.apply(event);
        }
    }

    /** lineage-service's parse results: which tables each process's queries read and write. */
    @Incoming("parsed")
    public void parsed(SpecificRecord event) {
        if (event != null) {
            view.apply(event);
        }
    }
}
