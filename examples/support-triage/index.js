// The tickets tool: a small in-memory ticket store. Plain JavaScript, no imports needed.
const tickets = new Map([
  [7, { id: 7, subject: "Charged twice for the May invoice", queue: null }],
  [8, { id: 8, subject: "App crashes when I upload a photo", queue: null }],
]);

export default {
  setup(host) {
    host.addTool({
      name: "tickets",
      description: "Ticket store.",
      build: () => ({
        functions: [
          {
            name: "lookup",
            description: "Look a ticket up by id.",
            input: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
            run: async (args) => {
              const ticket = tickets.get(args.id);
              if (!ticket) throw new Error(`no ticket with id ${args.id}`);
              return ticket;
            },
          },
          {
            name: "assign",
            description: "Put a ticket in a queue.",
            input: {
              type: "object",
              properties: {
                id: { type: "integer" },
                queue: { enum: ["billing", "bugs", "accounts", "escalations"] },
              },
              required: ["id", "queue"],
            },
            run: async (args) => {
              const ticket = tickets.get(args.id);
              if (!ticket) throw new Error(`no ticket with id ${args.id}`);
              ticket.queue = args.queue;
              return { id: ticket.id, queue: ticket.queue };
            },
          },
        ],
      }),
    });
  },
};
