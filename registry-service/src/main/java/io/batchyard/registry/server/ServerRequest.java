package io.batchyard.registry.server;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * Body of POST and PUT. On PUT an absent (null) secret keeps the stored one and an empty string removes it.
 * {@link #toString()} masks the secrets so the request can never reach a log in clear.
 */
public record ServerRequest(
        @NotBlank @Size(max = 45) String serverType,
        @NotBlank @Size(max = 45) String serverName,
        @Size(max = 45) String serverMetainfo,
        @Size(max = 45) String loginUser,
        @Size(max = 1024) String loginPassword,
        @Size(max = 16384) String sshPrivateKey,
        @Size(max = 45) String serverIp,
        @Min(1) @Max(65535) Integer serverPort) {

    @Override
    public String toString() {
        return "ServerRequest[serverType=" + serverType + ", serverName=" + serverName + ", loginUser=" + loginUser
                + ", loginPassword=" + (loginPassword == null ? "null" : "***") + ", sshPrivateKey="
                + (sshPrivateKey == null ? "null" : "***") + ", serverIp=" + serverIp + ", serverPort=" + serverPort + "]";
    }
}
