// What `SingleTable.monitor()` creates for each scope (the table and every GSI), counted without
// aws-cdk-lib so the reports can say what removing or adding a GSI changes. monitoring.ts creates
// exactly these; a construct test checks the two agree on a synthesized template.

/** Throttle alarms per scope: one per operation (read, write), and one per operation and throttling cause the billing mode allows. */
export function throttleAlarmsPerScope(provisioned: boolean, causeAlarms: boolean = true): number {
  // Causes: key range, provisioned (provisioned billing); key range, on-demand maximum, account limit (on demand).
  const causes = causeAlarms ? (provisioned ? 2 : 3) : 0;
  return 2 * (1 + causes);
}

/** Dashboard widgets per scope: one throttling graph. */
export const DASHBOARD_WIDGETS_PER_SCOPE = 1;
