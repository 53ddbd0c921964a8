// Channels: the tenant's channels (each a plugin's `<plugin>/<channel>`), whether each is
// enabled and configured, whether it takes notifications, and how many of its messages are in
// each outbox state, from GET /v1/t/{tenant}/channels.
import { api, type Me, ok, type Schemas } from "../api";
import { useLoad } from "../load";
import { Empty, Panel, Show, Table } from "../parts/ui";
import { Link, tenantPath } from "../router";

type Channel = Schemas["Channel"];
const OUTBOX = ["inbound", "answering", "delivering", "delivered", "failed"] as const;

export function ChannelsPage(props: { me: Me }) {
  const { tenant } = props.me;
  const channels = useLoad(
    () => ok(api.GET("/v1/t/{tenant}/channels", { params: { path: { tenant } } })),
    [tenant],
  );
  return (
    <>
      <h1>Channels</h1>
      <Panel title="Channels">
        <Show loaded={channels}>
          {(data) =>
            data.channels.length === 0 ? (
              <Empty>No channels: install a plugin that registers one, such as plugins/channels.</Empty>
            ) : (
              <Table<Channel>
                label="Channels and their outbox"
                rows={data.channels}
                rowKey={(channel) => channel.channel}
                columns={[
                  {
                    head: "Channel",
                    cell: (channel) => (
                      <Link href={tenantPath(tenant, "plugins", channel.plugin)}>{channel.channel}</Link>
                    ),
                  },
                  { head: "Enabled", cell: (channel) => (channel.enabled ? "yes" : "no") },
                  { head: "Configured", cell: (channel) => (channel.configured ? "yes" : "no") },
                  {
                    head: "Notifications",
                    cell: (channel) =>
                      channel.supportsNotifications ? (channel.notificationsEnabled ? "on" : "off") : "none",
                  },
                  ...OUTBOX.map((state) => ({
                    head: state[0]!.toUpperCase() + state.slice(1),
                    numeric: true,
                    cell: (channel: Channel) => channel.outbox[state],
                  })),
                ]}
              />
            )
          }
        </Show>
      </Panel>
    </>
  );
}
