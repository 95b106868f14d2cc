/** Words of an area's lockdown and evacuation (issue 31) that only the web app shows: the banner, the door monitor. */
export const lockdownUi = {
  mode: {
    lockdown: '封锁',
    evacuate: '疏散',
  },
  banner: {
    lockdown: '本区域已封锁：所有门常闭，刷卡不能开门',
    evacuate: '本区域正在疏散：所有门常开',
    detail: '{{time}} 由 {{who}} 发起：{{reason}}',
    confirmed: '控制器已确认 {{confirmed}}/{{total}} 个门',
    open: '查看门状态',
  },
  panel: {
    title: '封锁与疏散',
    none: '本区域未封锁，也未疏散',
    start: '封锁或疏散…',
    release: '解除…',
    restoring: '已于 {{time}} 解除，正在恢复各门原有模式：{{confirmed}}/{{total}}',
  },
  startDialog: {
    title: '封锁或疏散本区域',
    lockdownHelp: '封锁：所有门常闭，任何卡都不能开门，门定时任务暂停',
    evacuateHelp: '疏散：所有门常开，门定时任务暂停',
    reason: '原因',
    reasonPlaceholder: '必填：为什么封锁或疏散（会记入操作日志并通知外部系统）',
    confirm: '确认执行',
    started: '已发出；各门的状态会在控制器确认后显示',
  },
  releaseDialog: {
    title: '解除封锁或疏散',
    help: '各门将恢复自己的模式、延时和门定时任务',
    note: '解除说明',
    notePlaceholder: '必填：解除的原因或处理结果',
    confirm: '确认解除',
    released: '已解除；各门正在恢复原有模式',
  },
  door: {
    pending: '等待控制器确认',
    held: '已确认 {{mode}}',
    restoring: '正在恢复',
    restored: '已恢复 {{mode}}',
    unreached: '控制器未应答，未改动',
  },
} as const;
