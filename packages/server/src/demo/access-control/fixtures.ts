import { citizenIdCheckChar } from '@gatehouse/shared';
import type { Random } from '../random.ts';

/** A controller of a demo area: WG unless `other`; `gate` devices are granted to every holder. */
export interface DeviceSeed {
  name: string;
  location: string;
  type: 1 | 2 | 3;
  other?: boolean;
  gate?: boolean;
}

export const DEVICES: DeviceSeed[][] = [
  [
    { name: '东门主入口', location: '小区东门岗亭旁', type: 2, gate: true },
    { name: '南门人行通道', location: '小区南门', type: 1, gate: true },
    { name: '北门人行通道', location: '小区北门', type: 1 },
    { name: '地下车库电梯厅', location: 'B1 车库 1-4 号电梯厅', type: 3 },
    { name: '1号楼单元门', location: '1号楼一层大堂', type: 2 },
    { name: '2号楼单元门', location: '2号楼一层大堂', type: 2 },
    { name: '3号楼单元门', location: '3号楼一层大堂', type: 2 },
    { name: '5号楼单元门', location: '5号楼一层大堂', type: 2 },
    { name: '物业服务中心', location: '会所一层', type: 1 },
    { name: '会所健身房', location: '会所二层', type: 1 },
    { name: '设备间与垃圾房', location: '地下一层东侧', type: 3 },
    { name: '东门人脸闸机', location: '小区东门访客通道', type: 1, other: true },
  ],
  [
    { name: '园区南大门', location: '科技园南区正门', type: 2, gate: true },
    { name: '园区北门', location: '北门人行道', type: 1 },
    { name: 'A栋大堂闸机', location: 'A栋一层大堂', type: 2 },
    { name: 'B栋大堂闸机', location: 'B栋一层大堂', type: 2 },
    { name: '研发中心', location: 'A栋五层', type: 1 },
    { name: '数据机房', location: 'B栋地下一层', type: 1 },
    { name: '员工餐厅', location: 'C栋二层', type: 1 },
    { name: '地下车库', location: '地下车库电梯厅', type: 3 },
    { name: '充电区门禁', location: '地下车库充电区', type: 1 },
    { name: '南大门人脸闸机', location: '南大门访客通道', type: 2, other: true },
  ],
];

/**
 * Where holders of a demo area belong: residents are organised by the community grid, staff by the
 * property-service teams that work at the doors (null: any department of the area).
 */
export const HOLDER_DEPARTMENTS: ({ staffGroups: string[]; staff: string[]; residents: string[] } | null)[] =
  [
    {
      staffGroups: ['物业员工', '外包服务人员'],
      staff: ['工程维修部', '强电班', '弱电班', '秩序维护部', '一号岗亭', '二号岗亭', '巡逻队', '环境保洁部'],
      residents: ['网格一组', '网格二组', '业主委员会'],
    },
    null,
  ];

/** Registered but not yet assigned: the SuperAdmin pool. */
export const POOL_SERIALS = [
  { serial: '123456701', type: 1 },
  { serial: '223456702', type: 2 },
  { serial: '423456703', type: 3 },
];

/** The WG serial's first digit names the model: 1, 2 or 4. */
export function serialFor(area: number, index: number, type: 1 | 2 | 3, other: boolean): string {
  const lead = other ? '9' : type === 3 ? '4' : String(type);
  return `${lead}${String(22_000_000 + area * 100_000 + index * 173).padStart(8, '0')}`;
}

const SURNAMES = [
  '王',
  '李',
  '张',
  '刘',
  '陈',
  '杨',
  '黄',
  '赵',
  '吴',
  '周',
  '徐',
  '孙',
  '马',
  '朱',
  '胡',
  '郭',
  '何',
  '高',
  '林',
  '罗',
  '郑',
  '梁',
  '谢',
  '宋',
  '唐',
  '许',
  '韩',
  '冯',
  '邓',
  '曹',
  '彭',
  '曾',
  '肖',
  '田',
  '董',
  '袁',
  '潘',
  '于',
  '蒋',
  '蔡',
  '余',
  '杜',
  '叶',
  '程',
  '苏',
  '魏',
  '吕',
  '丁',
  '任',
  '沈',
  '姚',
  '卢',
  '姜',
  '崔',
  '钟',
  '谭',
  '陆',
  '汪',
  '范',
  '金',
  '石',
  '廖',
  '贾',
  '夏',
  '韦',
  '方',
  '白',
  '邹',
  '孟',
  '熊',
  '秦',
  '邱',
  '江',
  '尹',
  '薛',
  '段',
  '雷',
  '侯',
  '龙',
  '史',
  '陶',
  '黎',
  '贺',
  '顾',
  '毛',
  '郝',
  '龚',
  '邵',
  '万',
  '钱',
  '欧阳',
  '司马',
  '诸葛',
];

const GIVEN = [
  '伟',
  '芳',
  '娜',
  '敏',
  '静',
  '丽',
  '强',
  '磊',
  '军',
  '洋',
  '勇',
  '艳',
  '杰',
  '娟',
  '涛',
  '明',
  '超',
  '霞',
  '平',
  '刚',
  '桂英',
  '秀英',
  '秀兰',
  '玉兰',
  '建华',
  '建国',
  '志强',
  '志明',
  '晓东',
  '晓燕',
  '海燕',
  '文博',
  '子涵',
  '梓轩',
  '欣怡',
  '浩然',
  '一诺',
  '雨桐',
  '思远',
  '俊杰',
  '佳怡',
  '宇航',
  '诗涵',
  '嘉豪',
  '婷',
  '鑫',
  '斌',
  '辉',
  '亮',
  '倩',
  '颖',
  '琳',
  '晨',
  '阳',
  '凯',
  '鹏',
  '华',
  '红',
  '梅',
  '雪',
  '瑶',
  '悦',
];

export function chineseName(r: Random): string {
  return `${r.pick(SURNAMES)}${r.pick(GIVEN)}`;
}

export function mobile(r: Random): string {
  return `1${r.pick(['3', '5', '7', '8', '9'])}${String(r.int(0, 999_999_999)).padStart(9, '0')}`;
}

/** A valid 18-character citizen id; `serial` (unique per area) keeps ids apart. */
export function citizenIdFor(region: string, birth: Date, serial: number): string {
  const y = birth.getUTCFullYear();
  const m = String(birth.getUTCMonth() + 1).padStart(2, '0');
  const d = String(birth.getUTCDate()).padStart(2, '0');
  const first17 = `${region}${y}${m}${d}${String(serial % 1000).padStart(3, '0')}`;
  return first17 + citizenIdCheckChar(first17);
}

/** Hangzhou Binjiang and Shenzhen Nanshan, where the demo areas are. */
export const REGIONS = ['330108', '440305'];

/** Minority nations appear now and then; most holders are Han (1). */
export const MINORITY_NATIONS = [3, 4, 5, 6, 8, 10, 11, 15, 16, 19];

export const FAULTS = [
  '刷卡无反应，读卡器指示灯不亮',
  '门禁控制器离线，网络不通',
  '电锁吸合不牢，门关不严',
  '出门按钮失灵，需要刷卡才能出门',
  '读卡器外壳破损，雨天进水',
  '闸机翼闸卡住，无法复位',
  '开门延时过短，老人通行困难',
  '门磁报警频繁误报',
  '刷卡成功但门不开',
  '夜间照明不足，读卡器看不清',
];

export const NOTES = [
  '已派维修人员到场检查',
  '更换读卡器后恢复正常',
  '重启控制器并检查交换机端口，已恢复在线',
  '调整电锁与门框间隙，测试正常',
  '更换出门按钮',
  '已联系厂家，等待配件',
];
