/**
 * The shape of the v3 set's hand-written conversations: one memory per turn, one session per conversation. A
 * user-assistant turn starts with `U: ` (said by the user) or `A: ` (said by the assistant), a prefix the builder
 * strips; a turn between the two friends starts with the speaker's name, which stays in the body, as a chat
 * export shows it.
 */

export interface Session {
  /** The session id, and the stem of its turns' labels (`<id>-t<i>`). */
  id: string;
  /** When the first turn was said (UTC); later turns follow a minute or a few apart. */
  start: string;
  turns: string[];
  /**
   * When a chat is picked up again later (the next day, two weeks on): turn index → the time that turn was said;
   * the turns after it follow from there.
   */
  resumed?: Record<number, string>;
}

/** The label of turn `i` (from 0) of session `id`. */
export const turn = (id: string, i: number): string => `${id}-t${i}`;
