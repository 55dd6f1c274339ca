package io.batchyard.dashboard.feed;

import io.batchyard.dashboard.metrics.DashboardMeters;
import io.batchyard.dashboard.metrics.DashboardMeters.Dropped;
import io.batchyard.dashboard.view.DashboardView;
import io.batchyard.schemas.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The dashboard is a plain reader of the public topics, decoded through the schema registry like any other tool's
 * would be. Each instance reads them from the beginning in a group of its own (see application.properties), so its
 * view is rebuilt at every start and several instances never split the events between them. A record that did not
 * decode arrives as no event (the channels skip it rather than fail) and is counted as dropped, like an event of a
 * type the view does not show.
 */
@ApplicationScoped
public class TopicFeed {

    private final DashboardView view;
    private final DashboardMeters meters;

    public TopicFeed(DashboardView view, DashboardMeters meters) {
        this.view = view;
        this.meters = meters;
    }

    @Incoming("lifecycle")
    public void lifecycle(SpecificRecord event) {
        fold(Topics.EXECUTION_LIFECYCLE, event);
    }

    @Incoming("batches")
    public void batches(SpecificRecord event) {
        fold(Topics.QUEUE_BATCHES, event);
    }

    /** The registry's processes and applications: names, applications and which parents are stand-alone. */
    @Incoming("processes")
    public void processes(SpecificRecord event) {
        fold(Topics.REGISTRY_PROCESSES, event);
    }

    /** lineage-service's parse results: which tables each process's queries read and write. */
    @Incoming("parsed")
    public void parsed(SpecificRecord event) {
        fold(Topics.LINEAGE_PARSED, event);
    }

    private void fold(String topic, SpecificRecord event) {
        if (event == null) {
            meters.dropped(topic, Dropped.UNDECODABLE);
        } else if (view.apply(event)) {
            meters.applied(topic);
        } else {
            meters.dropped(topic, Dropped.UNEXPECTED);
        }
    }
}
