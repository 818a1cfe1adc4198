// Placeholder: settings backup and restore (issue 9 §5).
export default function Backup() {
  return null;
}
