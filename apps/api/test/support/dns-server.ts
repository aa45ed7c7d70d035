import dns2 from 'dns2';

const { Packet } = dns2;

/** A real DNS server on 127.0.0.1 (UDP) that answers TXT queries from a table the test fills. */
export interface RunningDnsServer {
  /** `127.0.0.1:<port>`: what `SSO_DNS_SERVERS` takes. */
  address: string;
  /** Publishes `values` (each one TXT record) at `name`; an empty list removes it. */
  publish(name: string, values: string[]): void;
  /** `servfail`: every answer is SERVFAIL, as a broken resolver's; `ok`: answers from the table. */
  mode(mode: 'ok' | 'servfail'): void;
  /** Questions about `name` get no answer at all while it is silent, as at a dead name server. */
  silence(name: string, silent: boolean): void;
  /** The names asked so far, in order (lower case). */
  readonly asked: string[];
  stop(): Promise<void>;
}

export async function startDnsServer(): Promise<RunningDnsServer> {
  const records = new Map<string, string[]>();
  let current: 'ok' | 'servfail' = 'ok';
  const silent = new Set<string>();
  const asked: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (question !== undefined) asked.push(question.name.toLowerCase());
      if (question !== undefined && silent.has(question.name.toLowerCase())) return;
      if (current === 'servfail') {
        response.header.rcode = 2;
      } else if (question !== undefined) {
        const values = records.get(question.name.toLowerCase());
        if (values === undefined)
          response.header.rcode = 3; // NXDOMAIN
        else if (question.type === Packet.TYPE.TXT)
          for (const data of values)
            response.answers.push({
              name: question.name,
              type: Packet.TYPE.TXT,
              class: Packet.CLASS.IN,
              ttl: 1,
              data,
            } as unknown as dns2.Packet.Resource);
      }
      void send(response);
    },
  });
  const listening = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = listening.udp?.port;
  if (port === undefined) throw new Error('the DNS server did not listen on UDP');
  return {
    address: `127.0.0.1:${port}`,
    publish(name, values) {
      if (values.length === 0) records.delete(name.toLowerCase());
      else records.set(name.toLowerCase(), values);
    },
    mode(mode) {
      current = mode;
    },
    silence(name, on) {
      if (on) silent.add(name.toLowerCase());
      else silent.delete(name.toLowerCase());
    },
    asked,
    stop: () => server.close(),
  };
}
