package io.batchyard.dashboard.view;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** One view per dashboard instance, shared by the topic readers and the page. */
@ApplicationScoped
public class ViewProducer {

    @Produces
    @Singleton
    DashboardView view() {
        return new DashboardView();
    }
}
