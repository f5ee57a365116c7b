package org.apache.beam.sdk.fn.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.beam.model.pipeline.v1.Endpoints;
import org.apache.beam.sdk.fn.channel.SocketAddressFactory;
import org.apache.beam.vendor.grpc.v1p60p1.io.grpc.BindableService;
import org.apache.beam.vendor.grpc.v1p60p1.io.grpc.Server;
import org.apache.beam.vendor.grpc.v1p60p1.io.grpc.ServerInterceptors;
import org.apache.beam.vendor.grpc.v1p60p1.io.grpc.netty.NettyServerBuilder;

/*
 * labtui builds one class of this file, ServerFactory$InetSocketAddressServerFactory, and
 * puts it in place of flink-python 2.2.1's own in a copy of that jar (this folder's
 * pythonjar.go: localcluster builds the copy for the cluster backends, the Flink image for
 * the compose lab). It is the factory of the gRPC services a TaskManager opens for its Python
 * worker (control, data, state, logging, provisioning, artifacts). flink-python's version
 * names 127.0.0.1 in the address it gives the worker but binds with
 * NettyServerBuilder.forPort, which listens on every interface
 * (https://github.com/apache/beam/issues/21598): unauthenticated services that anyone who
 * reaches the machine could call. This one binds the address it names:
 * NettyServerBuilder.forAddress. Nothing else differs.
 *
 * The outer class here only stands in for flink-python's ServerFactory so that the nested
 * class compiles; at run time flink-python's own outer class is used, which lists this one
 * as its nest member.
 */
public abstract class ServerFactory {
    public abstract Server allocateAddressAndCreate(
            List<BindableService> services, Endpoints.ApiServiceDescriptor.Builder descriptor)
            throws IOException;

    public abstract Server create(
            List<BindableService> services, Endpoints.ApiServiceDescriptor descriptor)
            throws IOException;

    public interface UrlFactory {
        String createUrl(String address, int port);
    }

    public static class InetSocketAddressServerFactory extends ServerFactory {
        // The keep-alive pings a client may send, as flink-python's: the SDK's client
        // pings every 20 s.
        private static final int KEEP_ALIVE_SECONDS = 19;

        private final UrlFactory urlFactory;
        private final Supplier<Integer> portSupplier;

        private InetSocketAddressServerFactory(UrlFactory urlFactory) {
            this(urlFactory, () -> 0);
        }

        private InetSocketAddressServerFactory(UrlFactory urlFactory, Supplier<Integer> portSupplier) {
            this.urlFactory = urlFactory;
            this.portSupplier = portSupplier;
        }

        @Override
        public Server allocateAddressAndCreate(
                List<BindableService> services, Endpoints.ApiServiceDescriptor.Builder descriptor)
                throws IOException {
            InetSocketAddress address =
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), portSupplier.get());
            Server server = createServer(services, address);
            descriptor.setUrl(urlFactory.createUrl(address.getHostName(), server.getPort()));
            return server;
        }

        @Override
        public Server create(List<BindableService> services, Endpoints.ApiServiceDescriptor descriptor)
                throws IOException {
            SocketAddress address = SocketAddressFactory.createFrom(descriptor.getUrl());
            if (!(address instanceof InetSocketAddress)) {
                throw new IllegalArgumentException(
                        "InetSocketAddressServerFactory needs a host:port address, got " + descriptor.getUrl());
            }
            return createServer(services, (InetSocketAddress) address);
        }

        private static Server createServer(List<BindableService> services, InetSocketAddress address)
                throws IOException {
            NettyServerBuilder builder =
                    NettyServerBuilder.forAddress(address)
                            // The layers above bound a message's size.
                            .maxMessageSize(Integer.MAX_VALUE)
                            .permitKeepAliveTime(KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
            for (BindableService service : services) {
                builder.addService(
                        ServerInterceptors.intercept(service, GrpcContextHeaderAccessorProvider.interceptor()));
            }
            return builder.build().start();
        }
    }
}
