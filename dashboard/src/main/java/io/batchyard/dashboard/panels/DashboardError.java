package io.batchyard.dashboard.panels;

import io.batchyard.api.ErrorCode;

/** The dashboard's own refusals, numbered after the services' ranges; a service's own problem is passed on as is. */
public enum DashboardError implements ErrorCode {
    /** The service a panel reads did not answer in time (down, restarting, or not configured at this address). */
    SERVICE_UNREACHABLE(601, 503, "A service the panel reads is unreachable"),
    /** The service answered with something that is not its problem+json (a proxy's error page, say). */
    SERVICE_FAILED(602, 502, "A service the panel reads failed");

    private final Spec spec;

    DashboardError(int code, int status, String title) {
        this.spec = new Spec(code, status, title);
    }

    @Override
    public Spec spec() {
        return spec;
    }
}
