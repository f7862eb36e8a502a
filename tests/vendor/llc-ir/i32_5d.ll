; a 5-D tensor and index space: one vector of 64 along dim 0 per point,
; dims 1..4 one element each; out = a + (d1 + 10 d2 + 100 d3 + 1000 d4),
; four nested loops over the index space.
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %f1 = extractelement <5 x i32> %off, i32 1
  %f2 = extractelement <5 x i32> %off, i32 2
  %f3 = extractelement <5 x i32> %off, i32 3
  %f4 = extractelement <5 x i32> %off, i32 4
  %n1 = extractelement <5 x i32> %size, i32 1
  %n2 = extractelement <5 x i32> %size, i32 2
  %n3 = extractelement <5 x i32> %size, i32 3
  %n4 = extractelement <5 x i32> %size, i32 4
  %l1 = add i32 %f1, %n1
  %l2 = add i32 %f2, %n2
  %l3 = add i32 %f3, %n3
  %l4 = add i32 %f4, %n4
  br label %L4

L4:
  %d4 = phi i32 [ %f4, %entry ], [ %d4n, %E4 ]
  br label %L3
L3:
  %d3 = phi i32 [ %f3, %L4 ], [ %d3n, %E3 ]
  br label %L2
L2:
  %d2 = phi i32 [ %f2, %L3 ], [ %d2n, %E2 ]
  br label %L1
L1:
  %d1 = phi i32 [ %f1, %L2 ], [ %d1n, %L1 ]
  %ca = insertelement <5 x i32> zeroinitializer, i32 %d1, i32 1
  %cb = insertelement <5 x i32> %ca, i32 %d2, i32 2
  %cc = insertelement <5 x i32> %cb, i32 %d3, i32 3
  %c = insertelement <5 x i32> %cc, i32 %d4, i32 4
  %a = call <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32> %c, i8 0, i32 0, <64 x i32> undef, i1 true, i1 false)
  %t2 = mul i32 %d2, 10
  %t3 = mul i32 %d3, 100
  %t4 = mul i32 %d4, 1000
  %u1 = add i32 %d1, %t2
  %u2 = add i32 %u1, %t3
  %u3 = add i32 %u2, %t4
  %uv = insertelement <64 x i32> undef, i32 %u3, i32 0
  %us = shufflevector <64 x i32> %uv, <64 x i32> undef, <64 x i32> zeroinitializer
  %r = add <64 x i32> %a, %us
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %c, i8 1, <64 x i32> %r, i32 0, i1 true, i1 false)
  %d1n = add i32 %d1, 1
  %m1 = icmp slt i32 %d1n, %l1
  br i1 %m1, label %L1, label %E2
E2:
  %d2n = add i32 %d2, 1
  %m2 = icmp slt i32 %d2n, %l2
  br i1 %m2, label %L2, label %E3
E3:
  %d3n = add i32 %d3, 1
  %m3 = icmp slt i32 %d3n, %l3
  br i1 %m3, label %L3, label %E4
E4:
  %d4n = add i32 %d4, 1
  %m4 = icmp slt i32 %d4n, %l4
  br i1 %m4, label %L4, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32>, i8, i32, <64 x i32>, i1, i1)
declare void @llvm.tpc.st.tnsr.v64i32(<5 x i32>, i8, <64 x i32>, i32, i1, i1)
