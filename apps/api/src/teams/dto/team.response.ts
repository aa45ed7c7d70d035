export interface TeamResponse {
  id: string;
  name: string;
  /** In the order they joined the team. */
  memberIds: string[];
  createdAt: string;
}
